import { listVouchersRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toVoucherListReply } from '../../lib/vouchers/voucher-list.mapper.js';
import { listVouchersQuery } from '../../lib/vouchers/voucher-list.schema.js';
import { listVouchers } from '../../lib/vouchers/voucher-list.service.js';

export const schemas = { query: listVouchersQuery };

export const makeHandler = endpoint(listVouchersRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toVoucherListReply(await listVouchers(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
