import { createCustomEventSchemaRoute } from '../../lib/api/routes.js';
import { toEventSchemaReply } from '../../lib/custom-event-schemas/event-schema.mapper.js';
import { createEventSchemaBody } from '../../lib/custom-event-schemas/event-schema.schema.js';
import { createCustomEventSchema } from '../../lib/custom-event-schemas/event-schema.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { body: createEventSchemaBody };

export const makeHandler = endpoint(createCustomEventSchemaRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toEventSchemaReply(await createCustomEventSchema(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
