import '../../lib/http/multipart-body.js';
import { importVouchersUsingCsvRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { accepted } from '../../lib/http/reply.js';
import { importCsvBody } from '../../lib/imports/import.schema.js';
import { importVouchersUsingCsv } from '../../lib/imports/voucher-csv-import.service.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: importCsvBody };

export const makeHandler = endpoint(
  importVouchersUsingCsvRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    accepted({ async_action_id: (await importVouchersUsingCsv({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId)).id }),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
