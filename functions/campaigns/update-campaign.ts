import { updateCampaignRoute } from '../../lib/api/routes.js';
import { toCampaignReply } from '../../lib/campaigns/campaign.mapper.js';
import { updateCampaignBody } from '../../lib/campaigns/campaign-lifecycle.schema.js';
import { updateCampaign } from '../../lib/campaigns/campaign-lifecycle.service.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: campaignParams, body: updateCampaignBody };

export const makeHandler = endpoint(updateCampaignRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toCampaignReply(await updateCampaign(runtime, principal.projectId, params.campaignId, body))),
);

export const handler = makeHandler();
