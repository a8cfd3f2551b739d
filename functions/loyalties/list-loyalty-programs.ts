import { listLoyaltyProgramsRoute } from '../../lib/api/routes.js';
import { toCampaignListReply } from '../../lib/campaigns/campaign.mapper.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { listLoyaltyProgramsQuery } from '../../lib/loyalties/loyalty-program-list.schema.js';
import { listLoyaltyPrograms } from '../../lib/loyalties/loyalty-program.service.js';

export const schemas = { query: listLoyaltyProgramsQuery };

export const makeHandler = endpoint(listLoyaltyProgramsRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toCampaignListReply(await listLoyaltyPrograms(runtime, principal.projectId, query), query.expand)),
);

export const handler = makeHandler();
