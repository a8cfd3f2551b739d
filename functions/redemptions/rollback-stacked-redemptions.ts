import { rollbackStackedRedemptionsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRedemptionRollbacksReply } from '../../lib/redemptions/redemption.mapper.js';
import { parentRedemptionParams, rollbackBody, rollbackQuery } from '../../lib/redemptions/redemption.schema.js';
import { rollbackStackedRedemptions } from '../../lib/redemptions/redemption.service.js';

export const schemas = { params: parentRedemptionParams, query: rollbackQuery, body: rollbackBody };

export const makeHandler = endpoint(rollbackStackedRedemptionsRoute, schemas, async ({ runtime, principal, params, query, body }) =>
  ok(toRedemptionRollbacksReply(await rollbackStackedRedemptions(runtime, principal.projectId, params.redemptionId, query, body))),
);

export const handler = makeHandler();
