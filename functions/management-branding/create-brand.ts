import { createBrandRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toBrandingReply } from '../../lib/management-branding/branding.mapper.js';
import { brandingListParams, createBrandBody } from '../../lib/management-branding/branding.schema.js';
import { createBrand } from '../../lib/management-branding/branding.service.js';

export const schemas = { params: brandingListParams, body: createBrandBody };

export const makeHandler = managementEndpoint(createBrandRoute, schemas, async ({ runtime, params, body }) =>
  ok(toBrandingReply(await createBrand(runtime, params.projectId, body))),
);

export const handler = makeHandler();
