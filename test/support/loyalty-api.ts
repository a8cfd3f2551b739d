import { makeHandler as makeCreateEarningRules } from '../../functions/earning-rules/create-earning-rule.js';
import { makeHandler as makeListPointsExpiration } from '../../functions/loyalties/list-points-expiration.js';
import { makeHandler as makeUpdateBalance } from '../../functions/loyalties/update-loyalty-card-balance-1.js';
import { createEarningRuleRoute, listPointsExpirationRoute, updateLoyaltyCardBalance1Route } from '../../lib/api/routes.js';
import type { IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import type { Runtime } from '../../lib/runtime.js';
import { callRoute } from './api.js';
import { keyPairHeaders } from './runtime.js';

const enc = encodeURIComponent;

/** The loyalty endpoints of one runtime, called with one project's key pair. */
export function loyaltyApi(runtime: Runtime, pair: IssuedKeyPair) {
  const handlers = {
    updateBalance: makeUpdateBalance({ runtime }),
    listPointsExpiration: makeListPointsExpiration({ runtime }),
    createEarningRules: makeCreateEarningRules({ runtime }),
  };
  const auth = keyPairHeaders(pair);
  return {
    handlers,
    updateBalance: (campaign: string, member: string, json: unknown, headers = auth) =>
      callRoute(handlers.updateBalance, updateLoyaltyCardBalance1Route, {
        path: `/v1/loyalties/${enc(campaign)}/members/${enc(member)}/balance`,
        json,
        headers,
      }),
    listPointsExpiration: (campaign: string, member: string, query = '', headers = auth) =>
      callRoute(handlers.listPointsExpiration, listPointsExpirationRoute, {
        path: `/v1/loyalties/${enc(campaign)}/members/${enc(member)}/points-expiration`,
        query,
        headers,
      }),
    createEarningRules: (campaign: string, json: unknown, headers = auth) =>
      callRoute(handlers.createEarningRules, createEarningRuleRoute, { path: `/v1/loyalties/${enc(campaign)}/earning-rules`, json, headers }),
  };
}

export type LoyaltyApi = ReturnType<typeof loyaltyApi>;
