import { listMetadataSchemas1Route } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagedMetadataSchemaListReply } from '../../lib/metadata-schemas/metadata-schema.mapper.js';
import { managedMetadataSchemasParams } from '../../lib/metadata-schemas/metadata-schema.schema.js';
import { listMetadataSchemas } from '../../lib/metadata-schemas/metadata-schema.service.js';

export const schemas = { params: managedMetadataSchemasParams };

export const makeHandler = managementEndpoint(listMetadataSchemas1Route, schemas, async ({ runtime, params }) =>
  ok(toManagedMetadataSchemaListReply(await listMetadataSchemas(runtime, params.projectId, true))),
);

export const handler = makeHandler();
