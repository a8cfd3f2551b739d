import { listCampaignsRoute } from '../../lib/api/routes.js';
import { toCampaignListReply } from '../../lib/campaigns/campaign.mapper.js';
import { listCampaignsQuery } from '../../lib/campaigns/campaign-list.schema.js';
import { listCampaigns } from '../../lib/campaigns/campaign.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { query: listCampaignsQuery };

export const makeHandler = endpoint(listCampaignsRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toCampaignListReply(await listCampaigns(runtime, principal.projectId, query), query.expand)),
);

export const handler = makeHandler();
