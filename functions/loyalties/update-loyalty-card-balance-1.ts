import { updateLoyaltyCardBalance1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { idempotencyScopeOf, okCommitted } from '../../lib/http/idempotency.js';
import { toBalanceReply } from '../../lib/loyalties/loyalty.mapper.js';
import { balanceBody, memberParams } from '../../lib/loyalties/loyalty.schema.js';
import { updateLoyaltyCardBalance } from '../../lib/loyalties/loyalty.service.js';

export const schemas = { params: memberParams, body: balanceBody };

export const makeHandler = endpoint(updateLoyaltyCardBalance1Route, schemas, async ({ runtime, principal, params, body, event }) => {
  // The card is part of the request: the same key and body sent to another card is another request.
  const idempotency = idempotencyScopeOf(event, principal.projectId, updateLoyaltyCardBalance1Route.operationId, { params, body });
  return okCommitted(await updateLoyaltyCardBalance(runtime, principal.projectId, params.campaignId, params.memberId, body, idempotency), toBalanceReply);
});

export const handler = makeHandler();
