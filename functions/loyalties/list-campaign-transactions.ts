import { listCampaignTransactionsRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { listCampaignTransactions } from '../../lib/loyalties/loyalty-member.service.js';
import { cardTransactionsQuery } from '../../lib/loyalties/loyalty.schema.js';
import { toVoucherTransactionListReply } from '../../lib/vouchers/voucher-balance.mapper.js';

export const schemas = { params: campaignParams, query: cardTransactionsQuery };

export const makeHandler = endpoint(listCampaignTransactionsRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toVoucherTransactionListReply(await listCampaignTransactions(runtime, principal.projectId, params.campaignId, query))),
);

export const handler = makeHandler();
