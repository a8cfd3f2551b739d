import { getLoyaltyProgramRoute } from '../../lib/api/routes.js';
import { toCampaignReply } from '../../lib/campaigns/campaign.mapper.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { getLoyaltyProgram } from '../../lib/loyalties/loyalty-program.service.js';
import { programParams } from '../../lib/loyalties/loyalty.schema.js';
import { withAssignments } from '../../lib/validation-rules/validation-rule.mapper.js';

export const schemas = { params: programParams };

export const makeHandler = endpoint(getLoyaltyProgramRoute, schemas, async ({ runtime, principal, params }) => {
  const { campaign, assignments } = await getLoyaltyProgram(runtime, principal.projectId, params.campaignId);
  return ok(withAssignments(toCampaignReply(campaign), assignments));
});

export const handler = makeHandler();
