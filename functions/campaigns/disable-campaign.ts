import { disableCampaignRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { disableCampaign } from '../../lib/campaigns/campaign-lifecycle.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: campaignParams };

export const makeHandler = endpoint(disableCampaignRoute, schemas, async ({ runtime, principal, params }) => {
  await disableCampaign(runtime, principal.projectId, params.campaignId);
  return ok({});
});

export const handler = makeHandler();
