import type { IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import type { Runtime } from '../../lib/runtime.js';
import { apiClient } from './api-client.js';
import { keyPairHeaders } from './runtime.js';

/** The reward endpoints of one runtime, called with one project's key pair (or other headers). */
export function rewardApi(runtime: Runtime, pair: IssuedKeyPair) {
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const auth = keyPairHeaders(pair);
  return {
    createReward: (json: unknown, headers = auth) => api.call('create-reward', { json, headers }),
    getReward: (id: string, headers = auth) => api.call('get-reward', { params: { rewardId: id }, headers }),
    assign: (rewardId: string, json: unknown, headers = auth) => api.call('create-reward-assignment', { params: { rewardId }, json, headers }),
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
