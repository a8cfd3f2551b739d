import '../../lib/http/multipart-body.js';
import { importVouchersToCampaignUsingCsvRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { importCsvBody } from '../../lib/imports/import.schema.js';
import { importVouchersToCampaignUsingCsv } from '../../lib/imports/voucher-csv-import.service.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { params: campaignParams, body: importCsvBody };

export const makeHandler = endpoint(
  importVouchersToCampaignUsingCsvRoute,
  schemas,
  async ({ runtime, ports, principal, params, body, requestId }) => {
    const action = await importVouchersToCampaignUsingCsv({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignId, body, requestId);
    return ok({ async_action_id: action.id });
  },
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
