import { deleteCampaignTemplateRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { campaignTemplateParams } from '../../lib/templates/campaign-template.schema.js';
import { deleteCampaignTemplate } from '../../lib/templates/campaign-template.service.js';

export const schemas = { params: campaignTemplateParams };

export const makeHandler = endpoint(deleteCampaignTemplateRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteCampaignTemplate(runtime, principal.projectId, params.campaignTemplateId);
  return noContent();
});

export const handler = makeHandler();
