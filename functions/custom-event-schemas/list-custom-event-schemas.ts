import { listCustomEventSchemasRoute } from '../../lib/api/routes.js';
import { toEventSchemaListReply } from '../../lib/custom-event-schemas/event-schema.mapper.js';
import { listCustomEventSchemas } from '../../lib/custom-event-schemas/event-schema.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = {};

export const makeHandler = endpoint(listCustomEventSchemasRoute, schemas, async ({ runtime, principal }) =>
  ok(toEventSchemaListReply(await listCustomEventSchemas(runtime, principal.projectId))),
);

export const handler = makeHandler();
