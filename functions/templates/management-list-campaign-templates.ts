import { managementListCampaignTemplatesRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toCampaignTemplateListReply } from '../../lib/templates/campaign-template.mapper.js';
import { listCampaignTemplatesQuery } from '../../lib/templates/campaign-template.schema.js';
import { managementTemplateListParams } from '../../lib/templates/management-template.schema.js';
import { managementListCampaignTemplates } from '../../lib/templates/management-template.service.js';

export const schemas = { params: managementTemplateListParams, query: listCampaignTemplatesQuery };

export const makeHandler = managementEndpoint(managementListCampaignTemplatesRoute, schemas, async ({ runtime, params, query }) =>
  ok(toCampaignTemplateListReply(await managementListCampaignTemplates(runtime, params.projectId, query))),
);

export const handler = makeHandler();
