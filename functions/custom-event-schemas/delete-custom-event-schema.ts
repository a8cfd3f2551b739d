import { deleteCustomEventSchemaRoute } from '../../lib/api/routes.js';
import { managementEventSchemaParams } from '../../lib/custom-event-schemas/event-schema.schema.js';
import { deleteCustomEventSchema } from '../../lib/custom-event-schemas/event-schema.service.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { noContent } from '../../lib/http/reply.js';

export const schemas = { params: managementEventSchemaParams };

export const makeHandler = managementEndpoint(deleteCustomEventSchemaRoute, schemas, async ({ runtime, params }) => {
  await deleteCustomEventSchema(runtime, params.projectId, params.customEventSchemaId);
  return noContent();
});

export const handler = makeHandler();
