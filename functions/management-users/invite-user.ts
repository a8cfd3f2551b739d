import { inviteUserRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { inviteUserBody } from '../../lib/management-users/user.schema.js';
import { inviteUser } from '../../lib/management-users/user.service.js';

export const schemas = { body: inviteUserBody };

export const makeHandler = managementEndpoint(inviteUserRoute, schemas, async ({ runtime, body }) => {
  await inviteUser(runtime, body);
  return noContent();
});

export const handler = makeHandler();
