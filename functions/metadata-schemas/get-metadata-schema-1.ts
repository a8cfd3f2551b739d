import { getMetadataSchema1Route } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagedMetadataSchemaReply } from '../../lib/metadata-schemas/metadata-schema.mapper.js';
import { managedMetadataSchemaParams } from '../../lib/metadata-schemas/metadata-schema.schema.js';
import { getMetadataSchema } from '../../lib/metadata-schemas/metadata-schema.service.js';

export const schemas = { params: managedMetadataSchemaParams };

export const makeHandler = managementEndpoint(getMetadataSchema1Route, schemas, async ({ runtime, params }) =>
  ok(toManagedMetadataSchemaReply(await getMetadataSchema(runtime, params.projectId, { managedId: params.metadataSchemaId }))),
);

export const handler = makeHandler();
