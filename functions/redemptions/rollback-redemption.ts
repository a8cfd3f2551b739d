import { rollbackRedemptionRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRedemptionReply } from '../../lib/redemptions/redemption.mapper.js';
import { redemptionParams, rollbackBody, rollbackQuery } from '../../lib/redemptions/redemption.schema.js';
import { rollbackRedemption } from '../../lib/redemptions/redemption.service.js';

export const schemas = { params: redemptionParams, query: rollbackQuery, body: rollbackBody };

export const makeHandler = endpoint(rollbackRedemptionRoute, schemas, async ({ runtime, principal, params, query, body }) =>
  ok(toRedemptionReply(await rollbackRedemption(runtime, principal.projectId, params.redemptionId, query, body))),
);

export const handler = makeHandler();
