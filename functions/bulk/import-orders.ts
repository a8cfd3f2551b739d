import { importOrdersRoute } from '../../lib/api/routes.js';
import { importOrdersBody } from '../../lib/bulk/bulk.schema.js';
import { importOrders } from '../../lib/bulk/bulk.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: importOrdersBody };

export const makeHandler = endpoint(
  importOrdersRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    ok({ async_action_id: (await importOrders({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId)).id }),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
