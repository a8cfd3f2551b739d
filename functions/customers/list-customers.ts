import { listCustomersRoute } from '../../lib/api/routes.js';
import { toCustomerListReply } from '../../lib/customers/customer.mapper.js';
import { listCustomersQuery } from '../../lib/customers/customer.schema.js';
import { listCustomers } from '../../lib/customers/customer.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { query: listCustomersQuery };

export const makeHandler = endpoint(listCustomersRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toCustomerListReply(await listCustomers(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
