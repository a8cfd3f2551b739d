import { createCampaignRoute } from '../../lib/api/routes.js';
import { toCampaignReply } from '../../lib/campaigns/campaign.mapper.js';
import { createCampaignBody } from '../../lib/campaigns/campaign.schema.js';
import { createCampaign } from '../../lib/campaigns/campaign.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import type { JobQueue } from '../../lib/jobs/job.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import type { Runtime } from '../../lib/runtime.js';

export const schemas = { body: createCampaignBody };

export const makeHandler = (runtime?: Runtime, jobs: JobQueue = containerJobQueue) =>
  endpoint(createCampaignRoute, schemas, async ({ runtime, principal, body, requestId }) =>
    ok(toCampaignReply(await createCampaign({ ...runtime, jobs }, principal.projectId, body, requestId))),
  )(runtime);

export const handler = makeHandler();
