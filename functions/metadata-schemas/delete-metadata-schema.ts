import { deleteMetadataSchemaRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { managedMetadataSchemaParams } from '../../lib/metadata-schemas/metadata-schema.schema.js';
import { deleteMetadataSchema } from '../../lib/metadata-schemas/metadata-schema.service.js';

export const schemas = { params: managedMetadataSchemaParams };

export const makeHandler = managementEndpoint(deleteMetadataSchemaRoute, schemas, async ({ runtime, params }) => {
  await deleteMetadataSchema(runtime, params.projectId, params.metadataSchemaId);
  return noContent();
});

export const handler = makeHandler();
