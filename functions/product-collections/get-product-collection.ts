import { getProductCollectionRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toProductCollectionReply } from '../../lib/product-collections/product-collection.mapper.js';
import { productCollectionParams } from '../../lib/product-collections/product-collection.schema.js';
import { getProductCollection } from '../../lib/product-collections/product-collection.service.js';

export const schemas = { params: productCollectionParams };

export const makeHandler = endpoint(getProductCollectionRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toProductCollectionReply(await getProductCollection(runtime, principal.projectId, params.productCollectionId))),
);

export const handler = makeHandler();
