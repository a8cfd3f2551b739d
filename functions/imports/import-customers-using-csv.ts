import '../../lib/http/multipart-body.js';
import { importCustomersUsingCsvRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { accepted } from '../../lib/http/reply.js';
import { importCustomersUsingCsv } from '../../lib/imports/catalog-csv-import.service.js';
import { importCsvBody } from '../../lib/imports/import.schema.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: importCsvBody };

export const makeHandler = endpoint(
  importCustomersUsingCsvRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    accepted({ async_action_id: (await importCustomersUsingCsv({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId)).id }),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
