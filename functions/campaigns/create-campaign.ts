import { createCampaignRoute } from '../../lib/api/routes.js';
import { toCampaignReply } from '../../lib/campaigns/campaign.mapper.js';
import { createCampaignBody } from '../../lib/campaigns/campaign.schema.js';
import { createCampaign } from '../../lib/campaigns/campaign.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: createCampaignBody };

export const makeHandler = endpoint(
  createCampaignRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    ok(toCampaignReply(await createCampaign({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId))),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
