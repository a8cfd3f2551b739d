import { addVouchersToCampaignRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { accepted, ok } from '../../lib/http/reply.js';
import type { JobQueue } from '../../lib/jobs/job.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import type { Runtime } from '../../lib/runtime.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';
import { addVouchersBody, addVouchersQuery } from '../../lib/vouchers/voucher.schema.js';
import { addVouchersToCampaign } from '../../lib/vouchers/voucher.service.js';

export const schemas = { params: campaignParams, query: addVouchersQuery, body: addVouchersBody };

export const makeHandler = (runtime?: Runtime, jobs: JobQueue = containerJobQueue) =>
  endpoint(addVouchersToCampaignRoute, schemas, async ({ runtime, principal, params, query, body, requestId }) => {
    const added = await addVouchersToCampaign({ ...runtime, jobs }, principal.projectId, params.campaignId, query.vouchers_count, body, requestId);
    return added.kind === 'voucher' ? ok(toVoucherReply(added.voucher)) : accepted({ async_action_id: added.action.id });
  })(runtime);

export const handler = makeHandler();
