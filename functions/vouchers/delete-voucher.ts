import { deleteVoucherRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { deleteVoucherQuery, voucherParams } from '../../lib/vouchers/voucher-params.schema.js';
import { deleteVoucher } from '../../lib/vouchers/voucher.service.js';

export const schemas = { params: voucherParams, query: deleteVoucherQuery };

export const makeHandler = endpoint(deleteVoucherRoute, schemas, async ({ runtime, principal, params, query }) => {
  await deleteVoucher(runtime, principal.projectId, params.code, query.force ?? false);
  return noContent();
});

export const handler = makeHandler();
