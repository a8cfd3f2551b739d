import { updatePromotionTierRoute } from '../../lib/api/routes.js';
import { tierReply } from '../../lib/campaigns/campaign.mapper.js';
import { promotionTierParams, updatePromotionTierBody } from '../../lib/campaigns/promotion-tier.schema.js';
import { updatePromotionTier } from '../../lib/campaigns/promotion-tier.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: promotionTierParams, body: updatePromotionTierBody };

export const makeHandler = endpoint(updatePromotionTierRoute, schemas, async ({ runtime, principal, params, body }) => {
  const { campaign, tier } = await updatePromotionTier(runtime, principal.projectId, params.promotionTierId, body);
  return ok(tierReply(campaign, tier));
});

export const handler = makeHandler();
