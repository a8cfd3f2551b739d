import { updateCustomersInBulkRoute } from '../../lib/api/routes.js';
import { updateCustomersInBulkBody } from '../../lib/bulk/bulk.schema.js';
import { updateCustomersInBulk } from '../../lib/bulk/bulk.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { accepted } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: updateCustomersInBulkBody };

export const makeHandler = endpoint(
  updateCustomersInBulkRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    accepted({ async_action_id: (await updateCustomersInBulk({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId)).id }),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
