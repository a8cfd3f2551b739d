import { assignUserRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toUserReply } from '../../lib/management-users/user.mapper.js';
import { assignUserBody, usersParams } from '../../lib/management-users/user.schema.js';
import { assignUser } from '../../lib/management-users/user.service.js';

export const schemas = { params: usersParams, body: assignUserBody };

export const makeHandler = managementEndpoint(assignUserRoute, schemas, async ({ runtime, params, body }) => {
  const { user, role } = await assignUser(runtime, params.projectId, body);
  return ok(toUserReply(user, role));
});

export const handler = makeHandler();
