import { listLoyaltyCardTransactions1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { listLoyaltyCardTransactions } from '../../lib/loyalties/loyalty-member.service.js';
import { cardTransactionsQuery, memberParams } from '../../lib/loyalties/loyalty.schema.js';
import { toVoucherTransactionListReply } from '../../lib/vouchers/voucher-balance.mapper.js';

export const schemas = { params: memberParams, query: cardTransactionsQuery };

export const makeHandler = endpoint(listLoyaltyCardTransactions1Route, schemas, async ({ runtime, principal, params, query }) =>
  ok(toVoucherTransactionListReply(await listLoyaltyCardTransactions(runtime, principal.projectId, params.campaignId, params.memberId, query))),
);

export const handler = makeHandler();
