import { updateCampaignTemplateRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toCampaignTemplateReply } from '../../lib/templates/campaign-template.mapper.js';
import { campaignTemplateParams, updateCampaignTemplateBody } from '../../lib/templates/campaign-template.schema.js';
import { updateCampaignTemplate } from '../../lib/templates/campaign-template.service.js';

export const schemas = { params: campaignTemplateParams, body: updateCampaignTemplateBody };

export const makeHandler = endpoint(updateCampaignTemplateRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toCampaignTemplateReply(await updateCampaignTemplate(runtime, principal.projectId, params.campaignTemplateId, body))),
);

export const handler = makeHandler();
