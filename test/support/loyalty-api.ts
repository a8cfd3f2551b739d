import type { IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import type { Runtime } from '../../lib/runtime.js';
import { apiClient } from './api-client.js';
import { keyPairHeaders } from './runtime.js';

/** The loyalty endpoints of one runtime, called with one project's key pair. */
export function loyaltyApi(runtime: Runtime, pair: IssuedKeyPair) {
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const auth = keyPairHeaders(pair);
  return {
    updateBalance: (campaign: string, member: string, json: unknown, headers = auth) =>
      api.call('update-loyalty-card-balance-1', { params: { campaignId: campaign, memberId: member }, json, headers }),
    listPointsExpiration: (campaign: string, member: string, query = '', headers = auth) =>
      api.call('list-points-expiration', { params: { campaignId: campaign, memberId: member }, query, headers }),
    createEarningRules: (campaign: string, json: unknown, headers = auth) =>
      api.call('create-earning-rule', { params: { campaignId: campaign }, json, headers }),
  };
}

export type LoyaltyApi = ReturnType<typeof loyaltyApi>;
