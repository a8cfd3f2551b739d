import { deleteCustomerRoute } from '../../lib/api/routes.js';
import { customerParams } from '../../lib/customers/customer.schema.js';
import { deleteCustomer } from '../../lib/customers/customer.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';

export const schemas = { params: customerParams };

export const makeHandler = endpoint(deleteCustomerRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteCustomer(runtime, principal.projectId, params.customerId);
  return noContent();
});

export const handler = makeHandler();
