import { exportCampaignTransactionsRoute } from '../../lib/api/routes.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { exportCampaignTransactions } from '../../lib/exports/export-doors.service.js';
import { toExportReply } from '../../lib/exports/export.mapper.js';
import { exportTransactionsBody } from '../../lib/exports/export.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { params: campaignParams, body: exportTransactionsBody };

export const makeHandler = endpoint(
  exportCampaignTransactionsRoute,
  schemas,
  async ({ runtime, ports, principal, params, body }) =>
    ok(toExportReply(await exportCampaignTransactions({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignId, body, principal.appId))),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
