import { validateStackedDiscountsClientSideRoute } from '../../lib/api/routes.js';
import { clientEndpoint } from '../../lib/http/client-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toStackedValidationReply } from '../../lib/validations/validation.mapper.js';
import { validateStackedDiscountsBody } from '../../lib/validations/validation.schema.js';
import { validateStackedDiscountsClientSide } from '../../lib/validations/client-side.service.js';

export const schemas = { body: validateStackedDiscountsBody };

export const makeHandler = clientEndpoint(validateStackedDiscountsClientSideRoute, schemas, async ({ runtime, principal, body, requestId }) =>
  ok(toStackedValidationReply(await validateStackedDiscountsClientSide(runtime, principal.projectId, body), requestId)),
);

export const handler = makeHandler();
