import { listProductCollectionsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toProductCollectionListReply } from '../../lib/product-collections/product-collection.mapper.js';
import { listProductCollectionsQuery } from '../../lib/product-collections/product-collection.schema.js';
import { listProductCollections } from '../../lib/product-collections/product-collection.service.js';

export const schemas = { query: listProductCollectionsQuery };

export const makeHandler = endpoint(listProductCollectionsRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toProductCollectionListReply(await listProductCollections(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
