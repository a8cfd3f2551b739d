import { updateLoyaltyProgramRoute } from '../../lib/api/routes.js';
import { toCampaignReply } from '../../lib/campaigns/campaign.mapper.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { updateLoyaltyProgramBody } from '../../lib/loyalties/loyalty-program-lifecycle.schema.js';
import { updateLoyaltyProgram } from '../../lib/loyalties/loyalty-program.service.js';
import { programParams } from '../../lib/loyalties/loyalty.schema.js';
import { withAssignments } from '../../lib/validation-rules/validation-rule.mapper.js';

export const schemas = { params: programParams, body: updateLoyaltyProgramBody };

export const makeHandler = endpoint(
  updateLoyaltyProgramRoute,
  schemas,
  async ({ runtime, ports, principal, params, body, requestId }) => {
    const { campaign, assignments } = await updateLoyaltyProgram({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignId, body, requestId);
    return ok(withAssignments(toCampaignReply(campaign), assignments));
  },
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
