import { enableCampaignRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { enableCampaign } from '../../lib/campaigns/campaign-lifecycle.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: campaignParams };

export const makeHandler = endpoint(enableCampaignRoute, schemas, async ({ runtime, principal, params }) => {
  await enableCampaign(runtime, principal.projectId, params.campaignId);
  return ok({});
});

export const handler = makeHandler();
