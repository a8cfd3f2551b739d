import { listLoyaltyCampaignTransactionsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { listLoyaltyCampaignTransactions } from '../../lib/loyalties/loyalty-member.service.js';
import { cardTransactionsQuery, programParams } from '../../lib/loyalties/loyalty.schema.js';
import { toVoucherTransactionListReply } from '../../lib/vouchers/voucher-balance.mapper.js';

export const schemas = { params: programParams, query: cardTransactionsQuery };

export const makeHandler = endpoint(listLoyaltyCampaignTransactionsRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toVoucherTransactionListReply(await listLoyaltyCampaignTransactions(runtime, principal.projectId, params.campaignId, query))),
);

export const handler = makeHandler();
