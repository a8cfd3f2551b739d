import { putProductCollectionRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toProductCollectionReply } from '../../lib/product-collections/product-collection.mapper.js';
import { productCollectionParams, putProductCollectionBody } from '../../lib/product-collections/product-collection.schema.js';
import { putProductCollection } from '../../lib/product-collections/product-collection.service.js';

export const schemas = { params: productCollectionParams, body: putProductCollectionBody };

export const makeHandler = endpoint(putProductCollectionRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toProductCollectionReply(await putProductCollection(runtime, principal.projectId, params.productCollectionId, body))),
);

export const handler = makeHandler();
