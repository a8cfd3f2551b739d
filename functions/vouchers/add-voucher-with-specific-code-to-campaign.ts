import { addVoucherWithSpecificCodeToCampaignRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';
import { addVoucherWithCodeBody, campaignVoucherParams } from '../../lib/vouchers/voucher-create.schema.js';
import { addVoucherWithSpecificCodeToCampaign } from '../../lib/vouchers/voucher-create.service.js';

export const schemas = { params: campaignVoucherParams, body: addVoucherWithCodeBody };

export const makeHandler = endpoint(addVoucherWithSpecificCodeToCampaignRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toVoucherReply(await addVoucherWithSpecificCodeToCampaign(runtime, principal.projectId, params.campaignId, params.code, body))),
);

export const handler = makeHandler();
