import { revokeOauthTokenRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { revokeRequestBody } from '../../lib/oauth/oauth.schema.js';
import { revokeOauthToken } from '../../lib/oauth/oauth.service.js';

export const schemas = { body: revokeRequestBody };

export const makeHandler = endpoint(revokeOauthTokenRoute, schemas, async ({ runtime, principal, body }) => {
  await revokeOauthToken(runtime, principal, body.access_token);
  return noContent();
});

export const handler = makeHandler();
