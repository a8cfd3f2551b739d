import { getCustomerRoute } from '../../lib/api/routes.js';
import { toCustomerReply } from '../../lib/customers/customer.mapper.js';
import { customerParams } from '../../lib/customers/customer.schema.js';
import { getCustomer } from '../../lib/customers/customer.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: customerParams };

export const makeHandler = endpoint(getCustomerRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toCustomerReply(await getCustomer(runtime, principal.projectId, params.customerId))),
);

export const handler = makeHandler();
