import { listRedemptionsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRedemptionListReply } from '../../lib/redemptions/redemption.mapper.js';
import { listRedemptionsQuery } from '../../lib/redemptions/redemption.schema.js';
import { listRedemptions } from '../../lib/redemptions/redemption.service.js';

export const schemas = { query: listRedemptionsQuery };

export const makeHandler = endpoint(listRedemptionsRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toRedemptionListReply(await listRedemptions(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
