import { importVouchersRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { accepted } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';
import { importVouchersBody } from '../../lib/vouchers/voucher-import.schema.js';
import { importVouchers } from '../../lib/vouchers/voucher-import.service.js';

export const schemas = { body: importVouchersBody };

export const makeHandler = endpoint(
  importVouchersRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    accepted({ async_action_id: (await importVouchers({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId)).id }),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
