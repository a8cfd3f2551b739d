import { updateVouchersMetadataInBulkRoute } from '../../lib/api/routes.js';
import { updateVouchersMetadataInBulkBody } from '../../lib/bulk/bulk.schema.js';
import { updateVouchersMetadataInBulk } from '../../lib/bulk/bulk.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { accepted } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { body: updateVouchersMetadataInBulkBody };

export const makeHandler = endpoint(
  updateVouchersMetadataInBulkRoute,
  schemas,
  async ({ runtime, ports, principal, body, requestId }) =>
    accepted({ async_action_id: (await updateVouchersMetadataInBulk({ ...runtime, jobs: ports.jobs }, principal.projectId, body, requestId)).id }),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
