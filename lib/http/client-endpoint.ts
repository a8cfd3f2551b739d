import { authenticateClientKey } from '../auth/authenticate.js';
import { corsReplyHeaders, normalizeOrigin } from '../auth/origins.js';
import type { RouteDef } from '../api/route.js';
import { countClientRequest } from '../rate-limit/client-rate-limit.js';
import { type ApiRequest, type ClientSide, type EndpointSchemas, endpointWithClientSide, type HandlerFactory, type PortDefaults } from './endpoint.js';
import type { ReplyOf } from './reply.js';
import { headerOf } from './request.js';

const clientSide: ClientSide = {
  origin: (event) => {
    const raw = headerOf(event, 'origin');
    return raw === undefined ? undefined : (normalizeOrigin(raw) ?? raw);
  },
  presented: (event) => {
    const appId = headerOf(event, 'x-client-application-id');
    const appToken = headerOf(event, 'x-client-token');
    return appId && appToken ? { kind: 'client_key', appId, appToken } : undefined;
  },
  missing: (event) =>
    (headerOf(event, 'x-client-application-id') ?? headerOf(event, 'x-client-token')) !== undefined
      ? 'Send both X-Client-Application-Id and X-Client-Token'
      : 'Send X-Client-Application-Id and X-Client-Token, or Authorization: Bearer <access token>',
  authenticate: authenticateClientKey,
  replyHeaders: corsReplyHeaders,
  count: (runtime, principal, sourceIp, now) => countClientRequest(runtime, runtime.rateLimit, principal.projectId, principal.appId, sourceIp, now),
};

/**
 * Builds a client-side endpoint (`/client/v1/*`): as `endpoint`, but its credentials are a
 * client-side key pair checked with the request's Origin (or a bearer token with a client scope),
 * and replies to a trusted Origin carry CORS headers. Only client routes import this.
 */
export function clientEndpoint<R extends RouteDef, S extends EndpointSchemas, D extends PortDefaults = Record<never, never>>(
  route: R,
  schemas: S,
  fn: (request: ApiRequest<S, D>) => Promise<ReplyOf<R>>,
  defaults?: D,
): HandlerFactory {
  return endpointWithClientSide(clientSide, route, schemas, fn, defaults);
}
