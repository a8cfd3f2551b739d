import { listPromotionTiersClientSideRoute } from '../../lib/api/routes.js';
import { toPromotionTierListReply } from '../../lib/campaigns/promotion-tier.mapper.js';
import { listPromotionTiersQuery } from '../../lib/campaigns/promotion-tier.schema.js';
import { listPromotionTiersClientSide } from '../../lib/campaigns/promotion-tier-client-side.service.js';
import { clientEndpoint } from '../../lib/http/client-endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { query: listPromotionTiersQuery };

export const makeHandler = clientEndpoint(listPromotionTiersClientSideRoute, schemas, async ({ runtime, principal, query }) => {
  const page = await listPromotionTiersClientSide(runtime, principal.projectId, query);
  return ok(toPromotionTierListReply(page.tiers, page.total, query.page * query.limit < page.total));
});

export const handler = makeHandler();
