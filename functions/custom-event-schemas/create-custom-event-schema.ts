import { createCustomEventSchemaRoute } from '../../infra/routes.js';
import { toEventSchemaReply } from '../../lib/event-schemas/event-schema.mapper.js';
import { createEventSchemaBody } from '../../lib/event-schemas/event-schema.schema.js';
import { createEventSchema } from '../../lib/event-schemas/event-schema.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { body: createEventSchemaBody };

export const makeHandler = endpoint(createCustomEventSchemaRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toEventSchemaReply(await createEventSchema(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
