import { toActivityListReply } from '../../lib/activity/activity.mapper.js';
import { customerActivityQuery } from '../../lib/activity/activity.schema.js';
import { listCustomerActivityRoute } from '../../lib/api/routes.js';
import { listCustomerActivity } from '../../lib/customers/customer-activity.service.js';
import { customerParams } from '../../lib/customers/customer.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: customerParams, query: customerActivityQuery };

export const makeHandler = endpoint(listCustomerActivityRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toActivityListReply(await listCustomerActivity(runtime, principal.projectId, params.customerId, query))),
);

export const handler = makeHandler();
