import { createOAuthTokenRoute } from '../../infra/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { tokenRequestBody } from '../../lib/oauth/oauth.schema.js';
import { issueToken } from '../../lib/oauth/oauth.service.js';

export const schemas = { body: tokenRequestBody };

export const makeHandler = endpoint(createOAuthTokenRoute, schemas, async ({ runtime, principal, body }) =>
  ok(await issueToken(runtime, principal, { grantType: body.grant_type, scope: body.scope })),
);

export const handler = makeHandler();
