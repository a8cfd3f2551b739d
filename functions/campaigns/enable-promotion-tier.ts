import { enablePromotionTierRoute } from '../../lib/api/routes.js';
import { tierReply } from '../../lib/campaigns/campaign.mapper.js';
import { promotionTierParams } from '../../lib/campaigns/promotion-tier.schema.js';
import { enablePromotionTier } from '../../lib/campaigns/promotion-tier.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: promotionTierParams };

export const makeHandler = endpoint(enablePromotionTierRoute, schemas, async ({ runtime, principal, params }) => {
  const { campaign, tier } = await enablePromotionTier(runtime, principal.projectId, params.promotionTierId);
  return ok(tierReply(campaign, tier));
});

export const handler = makeHandler();
