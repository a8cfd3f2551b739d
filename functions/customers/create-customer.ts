import { createCustomerRoute } from '../../lib/api/routes.js';
import { toCustomerReply } from '../../lib/customers/customer.mapper.js';
import { createCustomerBody } from '../../lib/customers/customer.schema.js';
import { createCustomer } from '../../lib/customers/customer.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { body: createCustomerBody };

export const makeHandler = endpoint(createCustomerRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toCustomerReply(await createCustomer(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
