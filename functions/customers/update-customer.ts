import { updateCustomerRoute } from '../../lib/api/routes.js';
import { toCustomerReply } from '../../lib/customers/customer.mapper.js';
import { customerParams, updateCustomerBody } from '../../lib/customers/customer.schema.js';
import { updateCustomer } from '../../lib/customers/customer.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: customerParams, body: updateCustomerBody };

export const makeHandler = endpoint(updateCustomerRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toCustomerReply(await updateCustomer(runtime, principal.projectId, params.customerId, body))),
);

export const handler = makeHandler();
