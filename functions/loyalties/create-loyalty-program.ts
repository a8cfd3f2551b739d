import { createLoyaltyProgramRoute } from '../../lib/api/routes.js';
import { toCampaignReply } from '../../lib/campaigns/campaign.mapper.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { createLoyaltyProgramBody } from '../../lib/loyalties/loyalty-program.schema.js';
import { createLoyaltyProgram } from '../../lib/loyalties/loyalty-program.service.js';

export const schemas = { body: createLoyaltyProgramBody };

export const makeHandler = endpoint(
  createLoyaltyProgramRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    ok(toCampaignReply(await createLoyaltyProgram({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId))),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
