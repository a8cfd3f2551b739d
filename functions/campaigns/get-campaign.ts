import { getCampaignRoute } from '../../lib/api/routes.js';
import { toCampaignReply } from '../../lib/campaigns/campaign.mapper.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { getCampaign } from '../../lib/campaigns/campaign.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: campaignParams };

export const makeHandler = endpoint(getCampaignRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toCampaignReply(await getCampaign(runtime, principal.projectId, params.campaignId))),
);

export const handler = makeHandler();
