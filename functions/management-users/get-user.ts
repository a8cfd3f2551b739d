import { getUserRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toUserReply } from '../../lib/management-users/user.mapper.js';
import { userParams } from '../../lib/management-users/user.schema.js';
import { getUser } from '../../lib/management-users/user.service.js';

export const schemas = { params: userParams };

export const makeHandler = managementEndpoint(getUserRoute, schemas, async ({ runtime, params }) => {
  const { user, role } = await getUser(runtime, params.projectId, params.userId);
  return ok(toUserReply(user, role));
});

export const handler = makeHandler();
