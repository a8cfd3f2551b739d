import { listMetadataSchemasRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toMetadataSchemaListReply } from '../../lib/metadata-schemas/metadata-schema.mapper.js';
import { listMetadataSchemas } from '../../lib/metadata-schemas/metadata-schema.service.js';

export const schemas = {};

export const makeHandler = endpoint(listMetadataSchemasRoute, schemas, async ({ runtime, principal }) =>
  ok(toMetadataSchemaListReply(await listMetadataSchemas(runtime, principal.projectId))),
);

export const handler = makeHandler();
