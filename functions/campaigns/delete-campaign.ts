import { deleteCampaignRoute } from '../../lib/api/routes.js';
import { deleteCampaignQuery } from '../../lib/campaigns/campaign-lifecycle.schema.js';
import { deleteCampaign } from '../../lib/campaigns/campaign-lifecycle.service.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { accepted } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { params: campaignParams, query: deleteCampaignQuery };

export const makeHandler = endpoint(
  deleteCampaignRoute,
  schemas,
  async ({ runtime, ports, principal, params, query, requestId }) => {
    const action = await deleteCampaign({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignId, query.force ?? false, requestId);
    return accepted({ async_action_id: action.id });
  },
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
