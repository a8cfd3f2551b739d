import { getVoucherRedemptionsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toVoucherRedemptionsReply } from '../../lib/redemptions/redemption.mapper.js';
import { getVoucherRedemptions } from '../../lib/redemptions/redemption.service.js';
import { voucherParams } from '../../lib/vouchers/voucher-params.schema.js';

export const schemas = { params: voucherParams };

export const makeHandler = endpoint(getVoucherRedemptionsRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toVoucherRedemptionsReply(await getVoucherRedemptions(runtime, principal.projectId, params.code))),
);

export const handler = makeHandler();
