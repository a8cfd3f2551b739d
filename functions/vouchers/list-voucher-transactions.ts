import { listVoucherTransactionsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toVoucherTransactionListReply } from '../../lib/vouchers/voucher-balance.mapper.js';
import { voucherTransactionsQuery } from '../../lib/vouchers/voucher-balance.schema.js';
import { listVoucherTransactions } from '../../lib/vouchers/voucher-balance.service.js';
import { voucherParams } from '../../lib/vouchers/voucher-params.schema.js';

export const schemas = { params: voucherParams, query: voucherTransactionsQuery };

export const makeHandler = endpoint(listVoucherTransactionsRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toVoucherTransactionListReply(await listVoucherTransactions(runtime, principal.projectId, params.code, query))),
);

export const handler = makeHandler();
