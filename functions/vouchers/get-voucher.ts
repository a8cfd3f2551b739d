import { getVoucherRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { withAssignments } from '../../lib/validation-rules/validation-rule.mapper.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';
import { voucherParams } from '../../lib/vouchers/voucher-params.schema.js';
import { getVoucher } from '../../lib/vouchers/voucher.service.js';

export const schemas = { params: voucherParams };

export const makeHandler = endpoint(getVoucherRoute, schemas, async ({ runtime, principal, params }) => {
  const { voucher, assignments } = await getVoucher(runtime, principal.projectId, params.code);
  return ok(withAssignments(toVoucherReply(voucher), assignments));
});

export const handler = makeHandler();
