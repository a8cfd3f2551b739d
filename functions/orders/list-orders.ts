import { listOrdersRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toOrderListReply } from '../../lib/orders/order.mapper.js';
import { listOrdersQuery } from '../../lib/orders/order.schema.js';
import { listOrders } from '../../lib/orders/order.service.js';

export const schemas = { query: listOrdersQuery };

export const makeHandler = endpoint(listOrdersRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toOrderListReply(await listOrders(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
