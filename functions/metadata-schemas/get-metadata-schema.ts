import { getMetadataSchemaRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toMetadataSchemaReply } from '../../lib/metadata-schemas/metadata-schema.mapper.js';
import { metadataSchemaResourceParams } from '../../lib/metadata-schemas/metadata-schema.schema.js';
import { getMetadataSchema } from '../../lib/metadata-schemas/metadata-schema.service.js';

export const schemas = { params: metadataSchemaResourceParams };

export const makeHandler = endpoint(getMetadataSchemaRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toMetadataSchemaReply(await getMetadataSchema(runtime, principal.projectId, { relatedObject: params.resource }))),
);

export const handler = makeHandler();
