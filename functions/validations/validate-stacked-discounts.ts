import { validateStackedDiscountsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toStackedValidationReply } from '../../lib/validations/validation.mapper.js';
import { validateStackedDiscountsBody } from '../../lib/validations/validation.schema.js';
import { validateStackedDiscounts } from '../../lib/validations/validation.service.js';

export const schemas = { body: validateStackedDiscountsBody };

export const makeHandler = endpoint(validateStackedDiscountsRoute, schemas, async ({ runtime, principal, body, requestId }) =>
  ok(toStackedValidationReply(await validateStackedDiscounts(runtime, principal.projectId, body), requestId)),
);

export const handler = makeHandler();
