import { getProductRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toProductReply } from '../../lib/products/product.mapper.js';
import { productParams } from '../../lib/products/product.schema.js';
import { getProduct } from '../../lib/products/product.service.js';

export const schemas = { params: productParams };

export const makeHandler = endpoint(getProductRoute, schemas, async ({ runtime, principal, params }) => {
  const { product, skus } = await getProduct(runtime, principal.projectId, params.productId);
  return ok(toProductReply(product, skus));
});

export const handler = makeHandler();
