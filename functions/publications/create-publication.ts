import { createPublicationRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { toPublicationReply } from '../../lib/publications/publication.mapper.js';
import { createPublicationBody, createPublicationQuery } from '../../lib/publications/publication.schema.js';
import { createPublication } from '../../lib/publications/publication.service.js';

export const schemas = { query: createPublicationQuery, body: createPublicationBody };

export const makeHandler = endpoint(createPublicationRoute, schemas, async ({ runtime, principal, query, body, idempotency }) =>
  okCommitted(
    await createPublication(
      runtime,
      principal.projectId,
      { ...body, sourceId: body.source_id, joinOnce: query.join_once === true || body.join_once === true },
      idempotency,
    ),
    toPublicationReply,
  ),
);

export const handler = makeHandler();
