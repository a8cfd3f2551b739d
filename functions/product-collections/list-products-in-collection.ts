import { listProductsInCollectionRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toCollectionProductListReply } from '../../lib/product-collections/product-collection.mapper.js';
import { listProductsInCollectionQuery, productCollectionParams } from '../../lib/product-collections/product-collection.schema.js';
import { listProductsInCollection } from '../../lib/product-collections/product-collection.service.js';

export const schemas = { params: productCollectionParams, query: listProductsInCollectionQuery };

export const makeHandler = endpoint(listProductsInCollectionRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toCollectionProductListReply(await listProductsInCollection(runtime, principal.projectId, params.productCollectionId, query))),
);

export const handler = makeHandler();
