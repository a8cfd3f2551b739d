import { deleteProductRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { deleteProductQuery, productParams } from '../../lib/products/product.schema.js';
import { deleteProduct } from '../../lib/products/product.service.js';

export const schemas = { params: productParams, query: deleteProductQuery };

export const makeHandler = endpoint(deleteProductRoute, schemas, async ({ runtime, principal, params, query }) => {
  await deleteProduct(runtime, principal.projectId, params.productId, query.force ?? false);
  return noContent();
});

export const handler = makeHandler();
