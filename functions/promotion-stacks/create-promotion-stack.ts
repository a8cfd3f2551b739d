import { createPromotionStackRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toPromotionStackReply } from '../../lib/promotion-stacks/promotion-stack.mapper.js';
import { createPromotionStackBody } from '../../lib/promotion-stacks/promotion-stack.schema.js';
import { createPromotionStack } from '../../lib/promotion-stacks/promotion-stack.service.js';

export const schemas = { params: campaignParams, body: createPromotionStackBody };

export const makeHandler = endpoint(createPromotionStackRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toPromotionStackReply(await createPromotionStack(runtime, principal.projectId, params.campaignId, body))),
);

export const handler = makeHandler();
