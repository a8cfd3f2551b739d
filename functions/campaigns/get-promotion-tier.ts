import { getPromotionTierRoute } from '../../lib/api/routes.js';
import { tierReply } from '../../lib/campaigns/campaign.mapper.js';
import { promotionTierParams } from '../../lib/campaigns/promotion-tier.schema.js';
import { getPromotionTier } from '../../lib/campaigns/promotion-tier.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: promotionTierParams };

export const makeHandler = endpoint(getPromotionTierRoute, schemas, async ({ runtime, principal, params }) => {
  const { campaign, tier } = await getPromotionTier(runtime, principal.projectId, params.promotionTierId);
  return ok(tierReply(campaign, tier));
});

export const handler = makeHandler();
