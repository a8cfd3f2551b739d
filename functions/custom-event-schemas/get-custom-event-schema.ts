import { getCustomEventSchemaRoute } from '../../infra/routes.js';
import { toEventSchemaReply } from '../../lib/event-schemas/event-schema.mapper.js';
import { eventSchemaParams } from '../../lib/event-schemas/event-schema.schema.js';
import { findEventSchema } from '../../lib/event-schemas/event-schema.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: eventSchemaParams };

export const makeHandler = endpoint(getCustomEventSchemaRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toEventSchemaReply(await findEventSchema(runtime, principal.projectId, params.schemaId))),
);

export const handler = makeHandler();
