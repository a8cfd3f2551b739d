import { generateOauthTokenRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { tokenRequestBody } from '../../lib/oauth/oauth.schema.js';
import { generateOauthToken } from '../../lib/oauth/oauth.service.js';

export const schemas = { body: tokenRequestBody };

export const makeHandler = endpoint(generateOauthTokenRoute, schemas, async ({ runtime, principal, body }) =>
  ok(await generateOauthToken(runtime, principal, { grantType: body.grant_type, scope: body.scope })),
);

export const handler = makeHandler();
