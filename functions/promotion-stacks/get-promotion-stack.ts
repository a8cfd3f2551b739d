import { getPromotionStackRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toPromotionStackReply } from '../../lib/promotion-stacks/promotion-stack.mapper.js';
import { promotionStackParams } from '../../lib/promotion-stacks/promotion-stack.schema.js';
import { getPromotionStack } from '../../lib/promotion-stacks/promotion-stack.service.js';

export const schemas = { params: promotionStackParams };

export const makeHandler = endpoint(getPromotionStackRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toPromotionStackReply(await getPromotionStack(runtime, principal.projectId, params.campaignId, params.stackId))),
);

export const handler = makeHandler();
