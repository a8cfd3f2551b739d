import { deletePromotionStackRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { promotionStackParams } from '../../lib/promotion-stacks/promotion-stack.schema.js';
import { deletePromotionStack } from '../../lib/promotion-stacks/promotion-stack.service.js';

export const schemas = { params: promotionStackParams };

export const makeHandler = endpoint(deletePromotionStackRoute, schemas, async ({ runtime, principal, params }) => {
  await deletePromotionStack(runtime, principal.projectId, params.campaignId, params.stackId);
  return noContent();
});

export const handler = makeHandler();
