import { createOrderRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toOrderReply } from '../../lib/orders/order.mapper.js';
import { createOrderBody } from '../../lib/orders/order.schema.js';
import { createOrder } from '../../lib/orders/order.service.js';

export const schemas = { body: createOrderBody };

export const makeHandler = endpoint(createOrderRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toOrderReply(await createOrder(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
