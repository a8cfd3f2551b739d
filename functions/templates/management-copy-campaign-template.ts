import { managementCopyCampaignTemplateRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toCampaignTemplateReply } from '../../lib/templates/campaign-template.mapper.js';
import { copyCampaignTemplateBody, managementTemplateParams } from '../../lib/templates/management-template.schema.js';
import { managementCopyCampaignTemplate } from '../../lib/templates/management-template.service.js';

export const schemas = { params: managementTemplateParams, body: copyCampaignTemplateBody };

export const makeHandler = managementEndpoint(managementCopyCampaignTemplateRoute, schemas, async ({ runtime, params, body }) =>
  ok(toCampaignTemplateReply(await managementCopyCampaignTemplate(runtime, params.projectId, params.campaignTemplateId, body))),
);

export const handler = makeHandler();
