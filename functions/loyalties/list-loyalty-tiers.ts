import { listLoyaltyTiersRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toLoyaltyTierListReply } from '../../lib/loyalties/tier.mapper.js';
import { listTiersQuery, tierProgramParams } from '../../lib/loyalties/tier.schema.js';
import { listLoyaltyTiers } from '../../lib/loyalties/tier.service.js';

export const schemas = { params: tierProgramParams, query: listTiersQuery };

export const makeHandler = endpoint(listLoyaltyTiersRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toLoyaltyTierListReply(await listLoyaltyTiers(runtime, principal.projectId, params.campaignId, query))),
);

export const handler = makeHandler();
