import type { RouteDef } from '../lib/http/route.js';

/**
 * The route table: every endpoint once. API Gateway routes, the local server, the OpenAPI
 * document and each handler's authentication read it. `scope` lists the resource scopes that
 * cover an endpoint besides the umbrella of its side (`api` for server-side endpoints).
 */
export const createOAuthTokenRoute: RouteDef = {
  operationId: 'generate-oauth-token',
  method: 'POST',
  path: '/v1/oauth/token',
  handler: 'functions/oauth/create-oauth-token.ts',
  access: 'write',
  auth: { keyPair: true, bearer: false },
  scope: null,
  body: 'form',
  cluster: 'api',
  summary: 'Generate an OAuth 2.0 access token (client credentials)',
};

export const introspectOAuthTokenRoute: RouteDef = {
  operationId: 'introspect-oauth-token',
  method: 'POST',
  path: '/v1/oauth/introspect',
  handler: 'functions/oauth/introspect-oauth-token.ts',
  access: 'read',
  auth: { keyPair: true, bearer: false },
  scope: null,
  body: 'form',
  cluster: 'api',
  summary: 'Introspect an OAuth 2.0 access token',
};

/** Everything no other route matches: API Gateway's `$default`, and the local server's fallback. */
export const fallbackRoute: RouteDef = {
  operationId: 'route-not-found',
  method: 'GET',
  path: '$default',
  handler: 'functions/system/route-not-found.ts',
  access: 'read',
  auth: 'none',
  scope: null,
  body: 'none',
  cluster: 'api',
  summary: 'Error object for unknown routes and methods',
};

export const routes: readonly RouteDef[] = [createOAuthTokenRoute, introspectOAuthTokenRoute];
