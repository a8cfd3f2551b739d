import { getOrderRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toOrderReply } from '../../lib/orders/order.mapper.js';
import { orderParams } from '../../lib/orders/order.schema.js';
import { getOrder } from '../../lib/orders/order.service.js';

export const schemas = { params: orderParams };

export const makeHandler = endpoint(getOrderRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toOrderReply(await getOrder(runtime, principal.projectId, params.orderId))),
);

export const handler = makeHandler();
