import { getBrandRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toBrandingReply } from '../../lib/management-branding/branding.mapper.js';
import { brandingParams } from '../../lib/management-branding/branding.schema.js';
import { getBrand } from '../../lib/management-branding/branding.service.js';

export const schemas = { params: brandingParams };

export const makeHandler = managementEndpoint(getBrandRoute, schemas, async ({ runtime, params }) =>
  ok(toBrandingReply(await getBrand(runtime, params.projectId, params.brandingId))),
);

export const handler = makeHandler();
