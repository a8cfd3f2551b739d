import { addTierFromTemplateRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toPromotionTierSetupReply } from '../../lib/templates/campaign-template.mapper.js';
import { addTierFromTemplateBody, campaignTemplateParams } from '../../lib/templates/campaign-template.schema.js';
import { addTierFromTemplate } from '../../lib/templates/campaign-template.service.js';

export const schemas = { params: campaignTemplateParams, body: addTierFromTemplateBody };

export const makeHandler = endpoint(addTierFromTemplateRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toPromotionTierSetupReply(await addTierFromTemplate(runtime, principal.projectId, params.campaignTemplateId, body))),
);

export const handler = makeHandler();
