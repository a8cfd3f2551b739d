import { importVouchersToCampaignRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { accepted } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { importVouchersBody } from '../../lib/vouchers/voucher-import.schema.js';
import { importVouchersToCampaign } from '../../lib/vouchers/voucher-import.service.js';

export const schemas = { params: campaignParams, body: importVouchersBody };

export const makeHandler = endpoint(
  importVouchersToCampaignRoute,
  schemas,
  async ({ runtime, ports, principal, params, body, requestId }) => {
    const action = await importVouchersToCampaign({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignId, body, requestId);
    return accepted({ async_action_id: action.id });
  },
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
