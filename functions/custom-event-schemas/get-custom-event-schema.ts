import { getCustomEventSchemaRoute } from '../../lib/api/routes.js';
import { toEventSchemaReply } from '../../lib/custom-event-schemas/event-schema.mapper.js';
import { eventSchemaParams } from '../../lib/custom-event-schemas/event-schema.schema.js';
import { getCustomEventSchema } from '../../lib/custom-event-schemas/event-schema.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: eventSchemaParams };

export const makeHandler = endpoint(getCustomEventSchemaRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toEventSchemaReply(await getCustomEventSchema(runtime, principal.projectId, params.schemaId))),
);

export const handler = makeHandler();
