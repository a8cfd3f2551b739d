import { listBrandsRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toBrandingListReply } from '../../lib/management-branding/branding.mapper.js';
import { brandingListParams } from '../../lib/management-branding/branding.schema.js';
import { listBrands } from '../../lib/management-branding/branding.service.js';

export const schemas = { params: brandingListParams };

export const makeHandler = managementEndpoint(listBrandsRoute, schemas, async ({ runtime, params }) =>
  ok(toBrandingListReply(await listBrands(runtime, params.projectId))),
);

export const handler = makeHandler();
