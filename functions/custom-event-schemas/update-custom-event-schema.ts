import { updateCustomEventSchemaRoute } from '../../lib/api/routes.js';
import { toEventSchemaReply } from '../../lib/custom-event-schemas/event-schema.mapper.js';
import { managementEventSchemaParams, updateEventSchemaBody } from '../../lib/custom-event-schemas/event-schema.schema.js';
import { updateCustomEventSchema } from '../../lib/custom-event-schemas/event-schema.service.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: managementEventSchemaParams, body: updateEventSchemaBody };

export const makeHandler = managementEndpoint(updateCustomEventSchemaRoute, schemas, async ({ runtime, params, body }) =>
  ok(toEventSchemaReply(await updateCustomEventSchema(runtime, params.projectId, params.customEventSchemaId, body))),
);

export const handler = makeHandler();
