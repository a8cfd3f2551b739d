import { validatePromotionTierRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toPromotionTierValidationReply } from '../../lib/validations/legacy-validation.mapper.js';
import { validatePromotionTierBody, validatePromotionTierParams } from '../../lib/validations/legacy-validation.schema.js';
import { validatePromotionTier } from '../../lib/validations/legacy-validation.service.js';

export const schemas = { params: validatePromotionTierParams, body: validatePromotionTierBody };

export const makeHandler = endpoint(validatePromotionTierRoute, schemas, async ({ runtime, principal, params, body, requestId }) =>
  ok(toPromotionTierValidationReply(await validatePromotionTier(runtime, principal.projectId, params.promotionTierId, body), requestId)),
);

export const handler = makeHandler();
