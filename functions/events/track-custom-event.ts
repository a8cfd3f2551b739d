import { trackCustomEventRoute } from '../../lib/api/routes.js';
import { toEventReply } from '../../lib/events/event.mapper.js';
import { trackEventBody } from '../../lib/events/event.schema.js';
import { trackCustomEvent } from '../../lib/events/event.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';

export const schemas = { body: trackEventBody };

export const makeHandler = endpoint(trackCustomEventRoute, schemas, async ({ runtime, principal, body, idempotency }) =>
  okCommitted(await trackCustomEvent(runtime, principal.projectId, body, idempotency), toEventReply),
);

export const handler = makeHandler();
