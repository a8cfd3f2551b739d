import { addPromotionTierToCampaignRoute } from '../../lib/api/routes.js';
import { tierReply } from '../../lib/campaigns/campaign.mapper.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { addPromotionTierToCampaignBody } from '../../lib/campaigns/promotion-tier.schema.js';
import { addPromotionTierToCampaign } from '../../lib/campaigns/promotion-tier.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: campaignParams, body: addPromotionTierToCampaignBody };

export const makeHandler = endpoint(addPromotionTierToCampaignRoute, schemas, async ({ runtime, principal, params, body }) => {
  const { campaign, tier } = await addPromotionTierToCampaign(runtime, principal.projectId, params.campaignId, body);
  return ok(tierReply(campaign, tier));
});

export const handler = makeHandler();
