import { exportVoucherTransactionsRoute } from '../../lib/api/routes.js';
import { exportVoucherTransactions } from '../../lib/exports/export-doors.service.js';
import { toExportReply } from '../../lib/exports/export.mapper.js';
import { exportVoucherTransactionsBody } from '../../lib/exports/export.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { voucherParams } from '../../lib/vouchers/voucher-params.schema.js';

export const schemas = { params: voucherParams, body: exportVoucherTransactionsBody };

export const makeHandler = endpoint(
  exportVoucherTransactionsRoute,
  schemas,
  async ({ runtime, ports, principal, params, body }) =>
    ok(toExportReply(await exportVoucherTransactions({ ...runtime, jobs: ports.jobs }, principal.projectId, params.code, body, principal.appId))),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
