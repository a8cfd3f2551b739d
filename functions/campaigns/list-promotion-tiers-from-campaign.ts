import { listPromotionTiersFromCampaignRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { toPromotionTierListReply } from '../../lib/campaigns/promotion-tier.mapper.js';
import { listPromotionTiersFromCampaign } from '../../lib/campaigns/promotion-tier.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: campaignParams };

export const makeHandler = endpoint(listPromotionTiersFromCampaignRoute, schemas, async ({ runtime, principal, params }) => {
  const tiers = await listPromotionTiersFromCampaign(runtime, principal.projectId, params.campaignId);
  return ok(toPromotionTierListReply(tiers, tiers.length, false));
});

export const handler = makeHandler();
