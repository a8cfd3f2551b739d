import { listPromotionStacksInCampaignRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toPromotionStackListReply } from '../../lib/promotion-stacks/promotion-stack.mapper.js';
import { listPromotionStacksInCampaign } from '../../lib/promotion-stacks/promotion-stack.service.js';

export const schemas = { params: campaignParams };

export const makeHandler = endpoint(listPromotionStacksInCampaignRoute, schemas, async ({ runtime, principal, params }) => {
  const stacks = await listPromotionStacksInCampaign(runtime, principal.projectId, params.campaignId);
  return ok(toPromotionStackListReply(stacks, stacks.length));
});

export const handler = makeHandler();
