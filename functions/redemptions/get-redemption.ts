import { getRedemptionRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRedemptionReply } from '../../lib/redemptions/redemption.mapper.js';
import { redemptionParams } from '../../lib/redemptions/redemption.schema.js';
import { getRedemption } from '../../lib/redemptions/redemption.service.js';

export const schemas = { params: redemptionParams };

export const makeHandler = endpoint(getRedemptionRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toRedemptionReply(await getRedemption(runtime, principal.projectId, params.redemptionId))),
);

export const handler = makeHandler();
