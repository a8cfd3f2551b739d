import { exportLoyaltyCardTransactionsRoute } from '../../lib/api/routes.js';
import { exportLoyaltyCardTransactions } from '../../lib/exports/export-doors.service.js';
import { toExportReply } from '../../lib/exports/export.mapper.js';
import { exportTransactionsBody } from '../../lib/exports/export.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { cardParams } from '../../lib/loyalties/loyalty.schema.js';

export const schemas = { params: cardParams, body: exportTransactionsBody };

export const makeHandler = endpoint(
  exportLoyaltyCardTransactionsRoute,
  schemas,
  async ({ runtime, ports, principal, params, body }) =>
    ok(toExportReply(await exportLoyaltyCardTransactions({ ...runtime, jobs: ports.jobs }, principal.projectId, null, params.memberId, body, principal.appId))),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
