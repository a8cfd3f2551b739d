import { unassignUserRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { userParams } from '../../lib/management-users/user.schema.js';
import { unassignUser } from '../../lib/management-users/user.service.js';

export const schemas = { params: userParams };

export const makeHandler = managementEndpoint(unassignUserRoute, schemas, async ({ runtime, params }) => {
  await unassignUser(runtime, params.projectId, params.userId);
  return noContent();
});

export const handler = makeHandler();
