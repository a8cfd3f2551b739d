import { introspectOAuthTokenRoute } from '../../infra/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { introspectRequestBody } from '../../lib/oauth/oauth.schema.js';
import { introspectToken } from '../../lib/oauth/oauth.service.js';

export const schemas = { body: introspectRequestBody };

export const makeHandler = endpoint(introspectOAuthTokenRoute, schemas, async ({ runtime, principal, body }) =>
  ok(await introspectToken(runtime, principal, body.access_token)),
);

export const handler = makeHandler();
