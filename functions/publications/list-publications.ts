import { listPublicationsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toPublicationListReply } from '../../lib/publications/publication.mapper.js';
import { listPublicationsQuery } from '../../lib/publications/publication.schema.js';
import { listPublications } from '../../lib/publications/publication.service.js';

export const schemas = { query: listPublicationsQuery };

export const makeHandler = endpoint(listPublicationsRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toPublicationListReply(await listPublications(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
