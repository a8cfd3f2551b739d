import { listAllPromotionStacksRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toPromotionStackListReply } from '../../lib/promotion-stacks/promotion-stack.mapper.js';
import { listAllPromotionStacksQuery } from '../../lib/promotion-stacks/promotion-stack.schema.js';
import { listAllPromotionStacks } from '../../lib/promotion-stacks/promotion-stack.service.js';

export const schemas = { query: listAllPromotionStacksQuery };

export const makeHandler = endpoint(listAllPromotionStacksRoute, schemas, async ({ runtime, principal, query }) => {
  const { stacks, total } = await listAllPromotionStacks(runtime, principal.projectId, query);
  return ok(toPromotionStackListReply(stacks, total));
});

export const handler = makeHandler();
