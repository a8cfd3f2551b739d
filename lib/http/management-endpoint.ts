import type { RouteDef } from '../api/route.js';
import { authenticateManagementKey, MANAGEMENT_UNAUTHORIZED } from '../management/management-auth.js';
import { type ApiRequest, type EndpointSchemas, endpointWithManagementSide, type HandlerFactory, type ManagementSide, type PortDefaults } from './endpoint.js';
import type { ReplyOf } from './reply.js';
import { headerOf } from './request.js';

const managementSide: ManagementSide = {
  presented: (event) => {
    const appId = headerOf(event, 'x-management-id');
    const appToken = headerOf(event, 'x-management-token');
    return appId && appToken ? { kind: 'management_key', appId, appToken } : undefined;
  },
  missing: (event) =>
    (headerOf(event, 'x-management-id') ?? headerOf(event, 'x-management-token')) !== undefined
      ? MANAGEMENT_UNAUTHORIZED.halfPair
      : MANAGEMENT_UNAUTHORIZED.missing,
  authenticate: authenticateManagementKey,
};

/**
 * Builds a Management API endpoint (`/management/v1/*`): as `endpoint`, but its only credential is
 * an operator's X-Management-Id / X-Management-Token pair (no app key pair, client key or token),
 * and the principal acts in the key's own space, not a project. Only management routes import this.
 */
export function managementEndpoint<R extends RouteDef, S extends EndpointSchemas, D extends PortDefaults = Record<never, never>>(
  route: R,
  schemas: S,
  fn: (request: ApiRequest<S, D>) => Promise<ReplyOf<R>>,
  defaults?: D,
): HandlerFactory {
  return endpointWithManagementSide(managementSide, route, schemas, fn, defaults);
}
