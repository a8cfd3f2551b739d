import { updatePromotionStackRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toPromotionStackReply } from '../../lib/promotion-stacks/promotion-stack.mapper.js';
import { promotionStackParams, updatePromotionStackBody } from '../../lib/promotion-stacks/promotion-stack.schema.js';
import { updatePromotionStack } from '../../lib/promotion-stacks/promotion-stack.service.js';

export const schemas = { params: promotionStackParams, body: updatePromotionStackBody };

export const makeHandler = endpoint(updatePromotionStackRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toPromotionStackReply(await updatePromotionStack(runtime, principal.projectId, params.campaignId, params.stackId, body))),
);

export const handler = makeHandler();
