import { validateVoucherClientSideRoute } from '../../lib/api/routes.js';
import { clientEndpoint } from '../../lib/http/client-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { validateVoucherClientSideQuery } from '../../lib/validations/client-side-validate.schema.js';
import { validateVoucherClientSide } from '../../lib/validations/client-side-validate.service.js';
import { toVoucherValidationReply } from '../../lib/validations/legacy-validation.mapper.js';

export const schemas = { query: validateVoucherClientSideQuery };

export const makeHandler = clientEndpoint(validateVoucherClientSideRoute, schemas, async ({ runtime, principal, query, requestId }) =>
  ok(toVoucherValidationReply(await validateVoucherClientSide(runtime, principal.projectId, query.code, query.body), requestId)),
);

export const handler = makeHandler();
