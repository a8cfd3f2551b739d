import '../../lib/http/multipart-body.js';
import { importSKUsUsingCsvRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { importSKUsUsingCsv } from '../../lib/imports/catalog-csv-import.service.js';
import { importCsvBody } from '../../lib/imports/import.schema.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: importCsvBody };

export const makeHandler = endpoint(
  importSKUsUsingCsvRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    ok({ async_action_id: (await importSKUsUsingCsv({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId)).id }),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
