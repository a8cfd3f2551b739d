import { addVouchersToCampaignRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { accepted, ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';
import { addVouchersBody, addVouchersQuery } from '../../lib/vouchers/voucher.schema.js';
import { addVouchersToCampaign } from '../../lib/vouchers/voucher.service.js';

export const schemas = { params: campaignParams, query: addVouchersQuery, body: addVouchersBody };

export const makeHandler = endpoint(
  addVouchersToCampaignRoute,
  schemas,
  async ({ runtime, ports, principal, params, query, body, requestId }) => {
    const added = await addVouchersToCampaign({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignId, query.vouchers_count, body, requestId);
    return added.kind === 'voucher' ? ok(toVoucherReply(added.voucher)) : accepted({ async_action_id: added.action.id });
  },
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
