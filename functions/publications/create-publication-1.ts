import { createPublication1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { toPublicationReply } from '../../lib/publications/publication.mapper.js';
import { createPublicationLegacyQuery } from '../../lib/publications/publication.schema.js';
import { createPublication } from '../../lib/publications/publication.service.js';

export const schemas = { query: createPublicationLegacyQuery };

/** One voucher per request, as Voucherify's GET form allows. */
const MAX_COUNT = 1;

export const makeHandler = endpoint(createPublication1Route, schemas, async ({ runtime, principal, query, idempotency }) =>
  okCommitted(
    await createPublication(runtime, principal.projectId, { ...query, sourceId: query.source_id, joinOnce: query.join_once === true }, idempotency, MAX_COUNT),
    toPublicationReply,
  ),
);

export const handler = makeHandler();
