import { listCustomerSegmentsRoute } from '../../lib/api/routes.js';
import { customerParams } from '../../lib/customers/customer.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toCustomerSegmentListReply } from '../../lib/segments/segment.mapper.js';
import { listCustomerSegments } from '../../lib/segments/segment.service.js';

export const schemas = { params: customerParams };

export const makeHandler = endpoint(listCustomerSegmentsRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toCustomerSegmentListReply(await listCustomerSegments(runtime, principal.projectId, params.customerId))),
);

export const handler = makeHandler();
