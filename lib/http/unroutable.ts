import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { BadRequestError, MethodNotAllowedError, RouteNotFoundError } from '../errors.js';
import type { RouteDef } from '../api/route.js';
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
 * The reply for a request no route takes: 400 when a path segment cannot be decoded (no route
 * could name it), 405 with `Allow` when the path exists under another method, 404 otherwise.
 * Always throws, so the envelope writes the error object.
 */
export async function routeNotFound(routes: readonly RouteDef[], event: APIGatewayProxyEventV2): Promise<never> {
  const method = event.requestContext?.http?.method ?? 'GET';
  const path = event.rawPath ?? '/';
  const bad = undecodableSegment(path);
  if (bad !== undefined) {
    throw new BadRequestError('invalid_path', 'Invalid path', `The path segment '${bad.slice(0, 100)}' is not valid percent-encoding (UTF-8, %XX)`);
  }
  const found = findRoute(routes, method, path);
  if ('allowed' in found && found.allowed.length > 0) throw new MethodNotAllowedError(method, path, found.allowed);
  throw new RouteNotFoundError(method, path);
}
