import { listPromotionTiersRoute } from '../../lib/api/routes.js';
import { toPromotionTierListReply } from '../../lib/campaigns/promotion-tier.mapper.js';
import { listPromotionTiersQuery } from '../../lib/campaigns/promotion-tier.schema.js';
import { listPromotionTiers } from '../../lib/campaigns/promotion-tier.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { query: listPromotionTiersQuery };

export const makeHandler = endpoint(listPromotionTiersRoute, schemas, async ({ runtime, principal, query }) => {
  const page = await listPromotionTiers(runtime, principal.projectId, query);
  return ok(toPromotionTierListReply(page.tiers, page.total, query.page * query.limit < page.total));
});

export const handler = makeHandler();
