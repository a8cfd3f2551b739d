import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { MethodNotAllowedError, RouteNotFoundError } from '../errors.js';
import type { RouteDef } from '../api/route.js';
import { findRoute } from './route-match.js';

/**
 * The reply for a request no route takes: 405 with `Allow` when the path exists under another
 * method, 404 otherwise. Always throws, so the envelope writes the error object.
 */
export async function routeNotFound(routes: readonly RouteDef[], event: APIGatewayProxyEventV2): Promise<never> {
  const method = event.requestContext?.http?.method ?? 'GET';
  const path = event.rawPath ?? '/';
  const found = findRoute(routes, method, path);
  if ('allowed' in found && found.allowed.length > 0) throw new MethodNotAllowedError(method, path, found.allowed);
  throw new RouteNotFoundError(method, path);
}
