import { listCampaignTemplatesRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toCampaignTemplateListReply } from '../../lib/templates/campaign-template.mapper.js';
import { listCampaignTemplatesQuery } from '../../lib/templates/campaign-template.schema.js';
import { listCampaignTemplates } from '../../lib/templates/campaign-template.service.js';

export const schemas = { query: listCampaignTemplatesQuery };

export const makeHandler = endpoint(listCampaignTemplatesRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toCampaignTemplateListReply(await listCampaignTemplates(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
