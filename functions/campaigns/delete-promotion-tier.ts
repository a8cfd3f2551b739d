import { deletePromotionTierRoute } from '../../lib/api/routes.js';
import { promotionTierParams } from '../../lib/campaigns/promotion-tier.schema.js';
import { deletePromotionTier } from '../../lib/campaigns/promotion-tier.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';

export const schemas = { params: promotionTierParams };

export const makeHandler = endpoint(deletePromotionTierRoute, schemas, async ({ runtime, principal, params }) => {
  await deletePromotionTier(runtime, principal.projectId, params.promotionTierId);
  return noContent();
});

export const handler = makeHandler();
