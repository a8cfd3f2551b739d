import { createMetadataSchemaRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagedMetadataSchemaReply } from '../../lib/metadata-schemas/metadata-schema.mapper.js';
import { createMetadataSchemaBody, managedMetadataSchemasParams } from '../../lib/metadata-schemas/metadata-schema.schema.js';
import { createMetadataSchema } from '../../lib/metadata-schemas/metadata-schema.service.js';

export const schemas = { params: managedMetadataSchemasParams, body: createMetadataSchemaBody };

export const makeHandler = managementEndpoint(createMetadataSchemaRoute, schemas, async ({ runtime, params, body }) =>
  ok(toManagedMetadataSchemaReply(await createMetadataSchema(runtime, params.projectId, body))),
);

export const handler = makeHandler();
