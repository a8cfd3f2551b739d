import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequestError, MethodNotAllowedError, RouteNotFoundError } from '../errors.js';
import type { RouteDef } from '../api/route.js';
import type { HttpReply } from './reply.js';
import { findRoute } from './route-match.js';

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
export function slashlessRoute(routes: readonly RouteDef[], method: string, path: string): string | null {
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
export async function routeNotFound(routes: readonly RouteDef[], event: APIGatewayProxyEventV2): Promise<HttpReply<308, undefined>> {
  const method = event.requestContext?.http?.method ?? 'GET';
  const path = event.rawPath ?? '/';
  const bad = undecodableSegment(path);
  if (bad !== undefined) {
    throw new BadRequestError('invalid_path', 'Invalid path', `The path segment '${bad.slice(0, 100)}' is not valid percent-encoding (UTF-8, %XX)`);
  }
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
