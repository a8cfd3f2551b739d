import { getCampaignTemplateRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toCampaignTemplateReply } from '../../lib/templates/campaign-template.mapper.js';
import { campaignTemplateParams, getCampaignTemplateQuery } from '../../lib/templates/campaign-template.schema.js';
import { getCampaignTemplate } from '../../lib/templates/campaign-template.service.js';

export const schemas = { params: campaignTemplateParams, query: getCampaignTemplateQuery };

export const makeHandler = endpoint(getCampaignTemplateRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toCampaignTemplateReply(await getCampaignTemplate(runtime, principal.projectId, params.campaignTemplateId))),
);

export const handler = makeHandler();
