import { createProductRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toProductReply } from '../../lib/products/product.mapper.js';
import { createProductBody } from '../../lib/products/product.schema.js';
import { createProduct } from '../../lib/products/product.service.js';

export const schemas = { body: createProductBody };

export const makeHandler = endpoint(createProductRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toProductReply(await createProduct(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
