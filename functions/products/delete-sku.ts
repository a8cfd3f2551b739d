import { deleteSkuRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { deleteProductQuery, productSkuParams } from '../../lib/products/product.schema.js';
import { deleteSku } from '../../lib/products/product.service.js';

export const schemas = { params: productSkuParams, query: deleteProductQuery };

export const makeHandler = endpoint(deleteSkuRoute, schemas, async ({ runtime, principal, params, query }) => {
  await deleteSku(runtime, principal.projectId, params.productId, params.skuId, query.force ?? false);
  return noContent();
});

export const handler = makeHandler();
