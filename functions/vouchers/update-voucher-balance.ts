import { updateVoucherBalanceRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { toVoucherBalanceReply } from '../../lib/vouchers/voucher-balance.mapper.js';
import { voucherBalanceBody } from '../../lib/vouchers/voucher-balance.schema.js';
import { updateVoucherBalance } from '../../lib/vouchers/voucher-balance.service.js';
import { voucherParams } from '../../lib/vouchers/voucher-params.schema.js';

export const schemas = { params: voucherParams, body: voucherBalanceBody };

export const makeHandler = endpoint(updateVoucherBalanceRoute, schemas, async ({ runtime, principal, params, body, idempotency }) =>
  okCommitted(await updateVoucherBalance(runtime, principal.projectId, params.code, body, idempotency), toVoucherBalanceReply),
);

export const handler = makeHandler();
