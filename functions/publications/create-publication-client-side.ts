import { createPublicationClientSideRoute } from '../../lib/api/routes.js';
import { clientEndpoint } from '../../lib/http/client-endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { createPublicationClientSide } from '../../lib/publications/client-side.service.js';
import { toPublicationReply } from '../../lib/publications/publication.mapper.js';
import { createPublicationBody, createPublicationClientSideQuery } from '../../lib/publications/publication.schema.js';

export const schemas = { query: createPublicationClientSideQuery, body: createPublicationBody };

export const makeHandler = clientEndpoint(createPublicationClientSideRoute, schemas, async ({ runtime, principal, query, body, idempotency }) =>
  okCommitted(
    await createPublicationClientSide(
      runtime,
      principal.projectId,
      {
        ...body,
        campaign: body.campaign ?? (query.campaign !== undefined ? { name: query.campaign } : undefined),
        sourceId: body.source_id,
        joinOnce: query.join_once === true || body.join_once === true,
      },
      idempotency,
    ),
    toPublicationReply,
  ),
);

export const handler = makeHandler();
