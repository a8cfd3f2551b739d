import { updateOrderRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toOrderReply } from '../../lib/orders/order.mapper.js';
import { orderParams, updateOrderBody } from '../../lib/orders/order.schema.js';
import { updateOrder } from '../../lib/orders/order.service.js';

export const schemas = { params: orderParams, body: updateOrderBody };

export const makeHandler = endpoint(updateOrderRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toOrderReply(await updateOrder(runtime, principal.projectId, params.orderId, body))),
);

export const handler = makeHandler();
