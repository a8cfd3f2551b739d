import { trackCustomEventClientSideRoute } from '../../lib/api/routes.js';
import { trackCustomEventClientSide } from '../../lib/events/client-side.service.js';
import { toEventReply } from '../../lib/events/event.mapper.js';
import { trackEventBody } from '../../lib/events/event.schema.js';
import { clientEndpoint } from '../../lib/http/client-endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';

export const schemas = { body: trackEventBody };

export const makeHandler = clientEndpoint(trackCustomEventClientSideRoute, schemas, async ({ runtime, principal, body, idempotency }) =>
  okCommitted(await trackCustomEventClientSide(runtime, principal.projectId, body, idempotency), toEventReply),
);

export const handler = makeHandler();
