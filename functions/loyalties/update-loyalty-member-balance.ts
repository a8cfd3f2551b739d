import { updateLoyaltyMemberBalanceRoute } from '../../infra/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toBalanceReply } from '../../lib/loyalty/loyalty.mapper.js';
import { balanceBody, memberParams } from '../../lib/loyalty/loyalty.schema.js';
import { updateMemberBalance } from '../../lib/loyalty/loyalty.service.js';

export const schemas = { params: memberParams, body: balanceBody };

export const makeHandler = endpoint(updateLoyaltyMemberBalanceRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toBalanceReply(await updateMemberBalance(runtime, principal.projectId, params.campaignId, params.memberId, body))),
);

export const handler = makeHandler();
