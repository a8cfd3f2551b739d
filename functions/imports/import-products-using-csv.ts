import '../../lib/http/multipart-body.js';
import { importProductsUsingCsvRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { importProductsUsingCsv } from '../../lib/imports/catalog-csv-import.service.js';
import { importCsvBody } from '../../lib/imports/import.schema.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: importCsvBody };

export const makeHandler = endpoint(
  importProductsUsingCsvRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    ok({ async_action_id: (await importProductsUsingCsv({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId)).id }),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
