import { createInBulkLoyaltyTiersRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toLoyaltyTierReply } from '../../lib/loyalties/tier.mapper.js';
import { createTiersBody, tierProgramParams } from '../../lib/loyalties/tier.schema.js';
import { createInBulkLoyaltyTiers } from '../../lib/loyalties/tier.service.js';

export const schemas = { params: tierProgramParams, body: createTiersBody };

export const makeHandler = endpoint(createInBulkLoyaltyTiersRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok((await createInBulkLoyaltyTiers(runtime, principal.projectId, params.campaignId, body)).map(toLoyaltyTierReply)),
);

export const handler = makeHandler();
