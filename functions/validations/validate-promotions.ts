import { validatePromotionsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toPromotionsValidationReply } from '../../lib/validations/legacy-promotions.mapper.js';
import { validatePromotionsBody, validatePromotionsQuery } from '../../lib/validations/legacy-promotions.schema.js';
import { validatePromotions } from '../../lib/validations/legacy-promotions.service.js';

export const schemas = { body: validatePromotionsBody, query: validatePromotionsQuery };

export const makeHandler = endpoint(validatePromotionsRoute, schemas, async ({ runtime, principal, body, query }) =>
  ok(toPromotionsValidationReply(await validatePromotions(runtime, principal.projectId, body, query))),
);

export const handler = makeHandler();
