import { listProductsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toProductListReply } from '../../lib/products/product.mapper.js';
import { listProductsQuery } from '../../lib/products/product.schema.js';
import { listProducts } from '../../lib/products/product.service.js';

export const schemas = { query: listProductsQuery };

export const makeHandler = endpoint(listProductsRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toProductListReply(await listProducts(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
