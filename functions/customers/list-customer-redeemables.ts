import { listCustomerRedeemablesRoute } from '../../lib/api/routes.js';
import { toCustomerRedeemableListReply } from '../../lib/customers/customer-redeemable.mapper.js';
import { listCustomerRedeemablesQuery } from '../../lib/customers/customer-redeemable.schema.js';
import { listCustomerRedeemables } from '../../lib/customers/customer-redeemable.service.js';
import { customerParams } from '../../lib/customers/customer.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: customerParams, query: listCustomerRedeemablesQuery };

export const makeHandler = endpoint(listCustomerRedeemablesRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toCustomerRedeemableListReply(await listCustomerRedeemables(runtime, principal.projectId, params.customerId, query))),
);

export const handler = makeHandler();
