import { updateUserRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toUserReply } from '../../lib/management-users/user.mapper.js';
import { updateUserBody, userParams } from '../../lib/management-users/user.schema.js';
import { updateUser } from '../../lib/management-users/user.service.js';

export const schemas = { params: userParams, body: updateUserBody };

export const makeHandler = managementEndpoint(updateUserRoute, schemas, async ({ runtime, params, body }) => {
  const { user, role } = await updateUser(runtime, params.projectId, params.userId, body);
  return ok(toUserReply(user, role));
});

export const handler = makeHandler();
