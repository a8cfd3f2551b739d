import { createVoucherRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';
import { createVoucherBody, createVoucherParams } from '../../lib/vouchers/voucher-create.schema.js';
import { createVoucher } from '../../lib/vouchers/voucher-create.service.js';

export const schemas = { params: createVoucherParams, body: createVoucherBody };

export const makeHandler = endpoint(createVoucherRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toVoucherReply(await createVoucher(runtime, principal.projectId, params.code, body))),
);

export const handler = makeHandler();
