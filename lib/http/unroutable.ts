import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequestError, ForbiddenError, MethodNotAllowedError, RouteNotFoundError } from '../errors.js';
import { CLIENT_PATH_PREFIX, normalizeOrigin, preflightHeaders } from '../auth/origins.js';
import type { HttpReply } from './reply.js';
import { findRoute, type RoutePath } from './route-match.js';

/** The first path segment that is not valid percent-encoding (`%ZZ`, a lone `%`, bytes that are not UTF-8), if any. */
function undecodableSegment(path: string): string | undefined {
  return path.split('/').find((segment) => {
    try {
      decodeURIComponent(segment);
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * The path a trailing slash hides (`/v1/vouchers/` → `/v1/vouchers`, `/v1/campaigns//` too), when
 * a route takes it under this method; the root `/` never is one.
 */
export function slashlessRoute(routes: readonly RoutePath[], method: string, path: string): string | null {
  if (!path.endsWith('/')) return null;
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return null;
  return 'match' in findRoute(routes, method, trimmed) ? trimmed : null;
}

/**
 * The reply for a request no route takes: 308 to the route a trailing slash hid (the client sends
 * the same request, body and headers, again: docs/decisions.md "Trailing slashes"), 400 when a
 * path segment cannot be decoded (no route could name it), 405 with `Allow` when the path exists
 * under another method, 404 otherwise (thrown, so the envelope writes the error object).
 */
export async function routeNotFound(
  routes: readonly RoutePath[],
  event: APIGatewayProxyEventV2,
  originTrusted: (origin: string) => Promise<boolean>,
): Promise<HttpReply<308 | 204, undefined>> {
  const method = event.requestContext?.http?.method ?? 'GET';
  const path = event.rawPath ?? '/';
  const bad = undecodableSegment(path);
  if (bad !== undefined) {
    throw new BadRequestError('invalid_path', 'Invalid path', `The path segment '${bad.slice(0, 100)}' is not valid percent-encoding (UTF-8, %XX)`);
  }
  if (method === 'OPTIONS' && path.startsWith(CLIENT_PATH_PREFIX)) return preflight(routes, event, path, originTrusted);
  const target = slashlessRoute(routes, method, path);
  if (target !== null) {
    const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
    return { statusCode: 308, headers: { Location: `${target}${query}` } };
  }
  // A trailing slash on a path that exists under other methods: those methods, as without the slash.
  const trimmed = path.replace(/\/+$/, '');
  for (const candidate of trimmed !== '' && trimmed !== path ? [path, trimmed] : [path]) {
    const found = findRoute(routes, method, candidate);
    if ('allowed' in found && found.allowed.length > 0) throw new MethodNotAllowedError(method, path, found.allowed);
  }
  throw new RouteNotFoundError(method, path);
}

/**
 * A CORS preflight of a client-side route (no route takes OPTIONS, so it lands here, as API
 * Gateway's `$default` does): 204 with the allowed methods and headers, echoing the Origin when a
 * client-side key trusts it. A preflight carries no credentials, so it cannot know the key: the
 * request that follows checks its own key's origins and gets no CORS headers from an origin that
 * key does not trust. 403 for an Origin no key trusts, 404 for a path no client route has.
 */
async function preflight(
  routes: readonly RoutePath[],
  event: APIGatewayProxyEventV2,
  path: string,
  originTrusted: (origin: string) => Promise<boolean>,
): Promise<HttpReply<204, undefined>> {
  const found = findRoute(routes, 'OPTIONS', path);
  if (!('allowed' in found) || found.allowed.length === 0) throw new RouteNotFoundError('OPTIONS', path);
  const raw = event.headers?.origin ?? event.headers?.Origin;
  const origin = raw === undefined ? null : normalizeOrigin(raw);
  if (origin === null || !(await originTrusted(origin))) {
    throw new ForbiddenError(`Origin ${(raw ?? '(none)').slice(0, 200)} is not trusted by any client-side key`);
  }
  return { statusCode: 204, headers: preflightHeaders(origin) };
}
