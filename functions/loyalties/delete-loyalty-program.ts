import { deleteLoyaltyProgramRoute } from '../../lib/api/routes.js';
import { deleteCampaignQuery } from '../../lib/campaigns/campaign-lifecycle.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { deleteLoyaltyProgram } from '../../lib/loyalties/loyalty-program.service.js';
import { programParams } from '../../lib/loyalties/loyalty.schema.js';

export const schemas = { params: programParams, query: deleteCampaignQuery };

export const makeHandler = endpoint(
  deleteLoyaltyProgramRoute,
  schemas,
  async ({ runtime, ports, principal, params, query, requestId }) => {
    const action = await deleteLoyaltyProgram({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignId, query.force ?? false, requestId);
    return ok({ async_action_id: action.id });
  },
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
