import { getCampaignRoute } from '../../lib/api/routes.js';
import { toCampaignReply } from '../../lib/campaigns/campaign.mapper.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { getCampaign } from '../../lib/campaigns/campaign.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { withAssignments } from '../../lib/validation-rules/validation-rule.mapper.js';

export const schemas = { params: campaignParams };

export const makeHandler = endpoint(getCampaignRoute, schemas, async ({ runtime, principal, params }) => {
  const { campaign, assignments } = await getCampaign(runtime, principal.projectId, params.campaignId);
  return ok(withAssignments(toCampaignReply(campaign), assignments));
});

export const handler = makeHandler();
