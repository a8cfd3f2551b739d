import { updateProductRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toProductReply } from '../../lib/products/product.mapper.js';
import { productParams, updateProductBody } from '../../lib/products/product.schema.js';
import { updateProduct } from '../../lib/products/product.service.js';

export const schemas = { params: productParams, body: updateProductBody };

export const makeHandler = endpoint(updateProductRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toProductReply(await updateProduct(runtime, principal.projectId, params.productId, body))),
);

export const handler = makeHandler();
