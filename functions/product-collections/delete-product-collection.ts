import { deleteProductCollectionRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { productCollectionParams } from '../../lib/product-collections/product-collection.schema.js';
import { deleteProductCollection } from '../../lib/product-collections/product-collection.service.js';

export const schemas = { params: productCollectionParams };

export const makeHandler = endpoint(deleteProductCollectionRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteProductCollection(runtime, principal.projectId, params.productCollectionId);
  return noContent();
});

export const handler = makeHandler();
