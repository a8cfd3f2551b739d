import { updateLoyaltyCardBalanceRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { toBalanceReply } from '../../lib/loyalties/loyalty.mapper.js';
import { balanceBody, cardParams } from '../../lib/loyalties/loyalty.schema.js';
import { updateLoyaltyCardBalance } from '../../lib/loyalties/loyalty.service.js';

export const schemas = { params: cardParams, body: balanceBody };

export const makeHandler = endpoint(updateLoyaltyCardBalanceRoute, schemas, async ({ runtime, principal, params, body, idempotency }) =>
  okCommitted(await updateLoyaltyCardBalance(runtime, principal.projectId, null, params.memberId, body, idempotency), toBalanceReply),
);

export const handler = makeHandler();
