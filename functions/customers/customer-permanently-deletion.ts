import { customerPermanentlyDeletionRoute } from '../../lib/api/routes.js';
import { toPermanentDeletionReply } from '../../lib/customers/customer-erasure.mapper.js';
import { customerPermanentlyDeletion } from '../../lib/customers/customer-erasure.service.js';
import { customerParams } from '../../lib/customers/customer.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { containerJobQueue } from '../../lib/jobs/sqs-job-queue.js';

export const schemas = { params: customerParams };

export const makeHandler = endpoint(
  customerPermanentlyDeletionRoute,
  schemas,
  async ({ runtime, ports, principal, params }) =>
    ok(toPermanentDeletionReply(await customerPermanentlyDeletion({ ...runtime, jobs: ports.jobs }, principal.projectId, params.customerId))),
  { jobs: containerJobQueue },
);

export const handler = makeHandler();
