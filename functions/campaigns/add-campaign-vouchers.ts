import { addCampaignVouchersRoute } from '../../infra/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';
import { addVouchersBody, addVouchersQuery } from '../../lib/vouchers/voucher.schema.js';
import { addVoucherToCampaign } from '../../lib/vouchers/voucher.service.js';

export const schemas = { params: campaignParams, query: addVouchersQuery, body: addVouchersBody };

export const makeHandler = endpoint(addCampaignVouchersRoute, schemas, async ({ runtime, principal, params, query, body }) =>
  ok(toVoucherReply(await addVoucherToCampaign(runtime, principal.projectId, params.campaignId, query.vouchers_count, body))),
);

export const handler = makeHandler();
