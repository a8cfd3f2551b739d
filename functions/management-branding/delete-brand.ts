import { deleteBrandRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { brandingParams } from '../../lib/management-branding/branding.schema.js';
import { deleteBrand } from '../../lib/management-branding/branding.service.js';

export const schemas = { params: brandingParams };

export const makeHandler = managementEndpoint(deleteBrandRoute, schemas, async ({ runtime, params }) => {
  await deleteBrand(runtime, params.projectId, params.brandingId);
  return noContent();
});

export const handler = makeHandler();
