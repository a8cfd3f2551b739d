import { validateVoucherRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toVoucherValidationReply } from '../../lib/validations/legacy-validation.mapper.js';
import { validateVoucherBody, validateVoucherParams } from '../../lib/validations/legacy-validation.schema.js';
import { validateVoucher } from '../../lib/validations/legacy-validation.service.js';

export const schemas = { params: validateVoucherParams, body: validateVoucherBody };

export const makeHandler = endpoint(validateVoucherRoute, schemas, async ({ runtime, principal, params, body, requestId }) =>
  ok(toVoucherValidationReply(await validateVoucher(runtime, principal.projectId, params.code, body), requestId)),
);

export const handler = makeHandler();
