import { exportLoyaltyCampaignTransactionsRoute } from '../../lib/api/routes.js';
import { exportLoyaltyCampaignTransactions } from '../../lib/exports/export-doors.service.js';
import { toExportReply } from '../../lib/exports/export.mapper.js';
import { exportTransactionsBody } from '../../lib/exports/export.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { programParams } from '../../lib/loyalties/loyalty.schema.js';

export const schemas = { params: programParams, body: exportTransactionsBody };

export const makeHandler = endpoint(
  exportLoyaltyCampaignTransactionsRoute,
  schemas,
  async ({ runtime, ports, principal, params, body }) =>
    ok(toExportReply(await exportLoyaltyCampaignTransactions({ ...runtime, jobs: ports.jobs }, principal.projectId, params.campaignId, body, principal.appId))),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
