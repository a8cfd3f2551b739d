import { updateLoyaltyMemberBalanceRoute } from '../../infra/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { idempotencyScopeOf, okCommitted } from '../../lib/http/idempotency.js';
import { toBalanceReply } from '../../lib/loyalty/loyalty.mapper.js';
import { balanceBody, memberParams } from '../../lib/loyalty/loyalty.schema.js';
import { updateMemberBalance } from '../../lib/loyalty/loyalty.service.js';

export const schemas = { params: memberParams, body: balanceBody };

export const makeHandler = endpoint(updateLoyaltyMemberBalanceRoute, schemas, async ({ runtime, principal, params, body, event }) => {
  // The card is part of the request: the same key and body sent to another card is another request.
  const idempotency = idempotencyScopeOf(event, principal.projectId, updateLoyaltyMemberBalanceRoute.operationId, { params, body });
  return okCommitted(await updateMemberBalance(runtime, principal.projectId, params.campaignId, params.memberId, body, idempotency), toBalanceReply);
});

export const handler = makeHandler();
