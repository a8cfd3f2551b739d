import { updateMetadataSchemaRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagedMetadataSchemaReply } from '../../lib/metadata-schemas/metadata-schema.mapper.js';
import { managedMetadataSchemaParams, updateMetadataSchemaBody } from '../../lib/metadata-schemas/metadata-schema.schema.js';
import { updateMetadataSchema } from '../../lib/metadata-schemas/metadata-schema.service.js';

export const schemas = { params: managedMetadataSchemaParams, body: updateMetadataSchemaBody };

export const makeHandler = managementEndpoint(updateMetadataSchemaRoute, schemas, async ({ runtime, params, body }) =>
  ok(toManagedMetadataSchemaReply(await updateMetadataSchema(runtime, params.projectId, params.metadataSchemaId, body))),
);

export const handler = makeHandler();
