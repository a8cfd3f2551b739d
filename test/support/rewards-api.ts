import { makeHandler as makeCreateReward } from '../../functions/rewards/create-reward.js';
import { makeHandler as makeCreateAssignment } from '../../functions/rewards/create-reward-assignment.js';
import { makeHandler as makeGetReward } from '../../functions/rewards/get-reward.js';
import { createRewardAssignmentRoute, createRewardRoute, getRewardRoute } from '../../lib/api/routes.js';
import type { IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import type { Runtime } from '../../lib/runtime.js';
import { callRoute } from './api.js';
import { keyPairHeaders } from './runtime.js';

const enc = encodeURIComponent;

/** The reward endpoints of one runtime, called with one project's key pair (or other headers). */
export function rewardApi(runtime: Runtime, pair: IssuedKeyPair) {
  const handlers = {
    createReward: makeCreateReward({ runtime }),
    getReward: makeGetReward({ runtime }),
    createAssignment: makeCreateAssignment({ runtime }),
  };
  const auth = keyPairHeaders(pair);
  return {
    handlers,
    createReward: (json: unknown, headers = auth) => callRoute(handlers.createReward, createRewardRoute, { path: '/v1/rewards', json, headers }),
    getReward: (id: string, headers = auth) => callRoute(handlers.getReward, getRewardRoute, { path: `/v1/rewards/${enc(id)}`, headers }),
    assign: (rewardId: string, json: unknown, headers = auth) =>
      callRoute(handlers.createAssignment, createRewardAssignmentRoute, { path: `/v1/rewards/${enc(rewardId)}/assignments`, json, headers }),
  };
}

export type RewardApi = ReturnType<typeof rewardApi>;

export const rewardBodies = {
  MATERIAL: (name = 'Comic book') => ({
    name,
    type: 'MATERIAL',
    parameters: { product: { id: 'prod_comic', sku_id: 'sku_comic_1' } },
    stock: 2,
    attributes: { image_url: 'https://img.example.com/comic.png', description: 'Issue 1' },
    metadata: { shelf: 'B' },
  }),
  COIN: (name = 'Pay with points') => ({ name, type: 'COIN', parameters: { coin: { exchange_ratio: 900, points_ratio: 8000 } } }),
  CAMPAIGN: (campaignId: string, balance?: number, name = 'Campaign reward') => ({
    name,
    type: 'CAMPAIGN',
    parameters: { campaign: { id: campaignId, ...(balance !== undefined ? { balance } : {}) } },
  }),
} as const;
