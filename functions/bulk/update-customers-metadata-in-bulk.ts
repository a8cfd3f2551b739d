import { updateCustomersMetadataInBulkRoute } from '../../lib/api/routes.js';
import { metadataInBulkBody } from '../../lib/bulk/bulk.schema.js';
import { updateCustomersMetadataInBulk } from '../../lib/bulk/bulk.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { accepted } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: metadataInBulkBody };

export const makeHandler = endpoint(
  updateCustomersMetadataInBulkRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    accepted({ async_action_id: (await updateCustomersMetadataInBulk({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId)).id }),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
