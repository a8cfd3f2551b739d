import { listCustomEventSchemasRoute } from '../../infra/routes.js';
import { toEventSchemaListReply } from '../../lib/event-schemas/event-schema.mapper.js';
import { listEventSchemas } from '../../lib/event-schemas/event-schema.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = {};

export const makeHandler = endpoint(listCustomEventSchemasRoute, schemas, async ({ runtime, principal }) =>
  ok(toEventSchemaListReply(await listEventSchemas(runtime, principal.projectId))),
);

export const handler = makeHandler();
