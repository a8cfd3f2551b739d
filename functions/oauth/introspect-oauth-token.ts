import { introspectOauthTokenRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { introspectRequestBody } from '../../lib/oauth/oauth.schema.js';
import { introspectOauthToken } from '../../lib/oauth/oauth.service.js';

export const schemas = { body: introspectRequestBody };

export const makeHandler = endpoint(introspectOauthTokenRoute, schemas, async ({ runtime, principal, body }) =>
  ok(await introspectOauthToken(runtime, principal, body.access_token)),
);

export const handler = makeHandler();
