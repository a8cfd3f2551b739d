import { listUsersRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toUserListReply } from '../../lib/management-users/user.mapper.js';
import { usersParams } from '../../lib/management-users/user.schema.js';
import { listUsers } from '../../lib/management-users/user.service.js';

export const schemas = { params: usersParams };

export const makeHandler = managementEndpoint(listUsersRoute, schemas, async ({ runtime, params }) =>
  ok(toUserListReply(await listUsers(runtime, params.projectId))),
);

export const handler = makeHandler();
