import { listSKUsInProductRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toSkuListReply } from '../../lib/products/product.mapper.js';
import { listSkusQuery, productParams } from '../../lib/products/product.schema.js';
import { listSKUsInProduct } from '../../lib/products/product.service.js';

export const schemas = { params: productParams, query: listSkusQuery };

export const makeHandler = endpoint(listSKUsInProductRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toSkuListReply(await listSKUsInProduct(runtime, principal.projectId, params.productId, query))),
);

export const handler = makeHandler();
