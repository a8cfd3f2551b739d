import { updateCampaignRoute } from '../../lib/api/routes.js';
import { toCampaignReply } from '../../lib/campaigns/campaign.mapper.js';
import { updateCampaignBody } from '../../lib/campaigns/campaign-lifecycle.schema.js';
import { updateCampaign } from '../../lib/campaigns/campaign-lifecycle.service.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { withAssignments } from '../../lib/validation-rules/validation-rule.mapper.js';
import { assignmentsOf } from '../../lib/validation-rules/validation-rule.service.js';

export const schemas = { params: campaignParams, body: updateCampaignBody };

export const makeHandler = endpoint(
  updateCampaignRoute,
  schemas,
  async ({ runtime, ports, principal, params, body, requestId }) => {
    const { campaign, asyncAction } = await updateCampaign({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignId, body, requestId);
    const reply = withAssignments(toCampaignReply(campaign), await assignmentsOf(runtime, principal.projectId, campaign.id));
    return { ...ok(reply), ...(asyncAction ? { headers: { 'X-Async-Action-Id': asyncAction.id } } : {}) };
  },
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
