import { createCampaignTemplateRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toCampaignTemplateReply } from '../../lib/templates/campaign-template.mapper.js';
import { createCampaignTemplateBody } from '../../lib/templates/campaign-template.schema.js';
import { createCampaignTemplate } from '../../lib/templates/campaign-template.service.js';

export const schemas = { body: createCampaignTemplateBody };

export const makeHandler = endpoint(createCampaignTemplateRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toCampaignTemplateReply(await createCampaignTemplate(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
