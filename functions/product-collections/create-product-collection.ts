import { createProductCollectionRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toProductCollectionReply } from '../../lib/product-collections/product-collection.mapper.js';
import { createProductCollectionBody } from '../../lib/product-collections/product-collection.schema.js';
import { createProductCollection } from '../../lib/product-collections/product-collection.service.js';

export const schemas = { body: createProductCollectionBody };

export const makeHandler = endpoint(createProductCollectionRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toProductCollectionReply(await createProductCollection(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
