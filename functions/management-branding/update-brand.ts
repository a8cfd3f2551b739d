import { updateBrandRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toBrandingReply } from '../../lib/management-branding/branding.mapper.js';
import { brandingParams, updateBrandBody } from '../../lib/management-branding/branding.schema.js';
import { updateBrand } from '../../lib/management-branding/branding.service.js';

export const schemas = { params: brandingParams, body: updateBrandBody };

export const makeHandler = managementEndpoint(updateBrandRoute, schemas, async ({ runtime, params, body }) =>
  ok(toBrandingReply(await updateBrand(runtime, params.projectId, params.brandingId, body))),
);

export const handler = makeHandler();
