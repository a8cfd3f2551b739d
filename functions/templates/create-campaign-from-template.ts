import { createCampaignFromTemplateRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { toCampaignSetupReply } from '../../lib/templates/campaign-template.mapper.js';
import { campaignTemplateParams, createCampaignFromTemplateBody } from '../../lib/templates/campaign-template.schema.js';
import { createCampaignFromTemplate } from '../../lib/templates/campaign-template.service.js';

export const schemas = { params: campaignTemplateParams, body: createCampaignFromTemplateBody };

export const makeHandler = endpoint(
  createCampaignFromTemplateRoute,
  schemas,
  async ({ runtime, ports, principal, params, body, requestId }) =>
    ok(
      toCampaignSetupReply(await createCampaignFromTemplate({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignTemplateId, body, requestId)),
    ),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
