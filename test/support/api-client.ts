import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RouteDef } from '../../lib/api/route.js';
import { routes } from '../../lib/api/routes.js';
import type { ApiHandler, HandlerFactory, Ports } from '../../lib/http/endpoint.js';
import type { Runtime } from '../../lib/runtime.js';
import { matchPath } from '../../lib/http/route-match.js';
import { call, type CallOptions, type Reply } from './invoke.js';

const root = join(import.meta.dirname, '..', '..');

/** Calls a handler as API Gateway would for its route: method and path parameters from the row. */
export async function callRoute(handler: ApiHandler, route: RouteDef, options: Omit<CallOptions, 'method' | 'pathParameters'>): Promise<Reply> {
  const params = matchPath(route.path, options.path);
  if (!params) throw new Error(`${options.path} does not match ${route.path}`);
  return call(handler, { ...options, method: route.method, pathParameters: params, contract: route });
}

/** One request to an operation: path parameters by name, the rest as `call` takes it. */
export interface OperationRequest extends Omit<CallOptions, 'method' | 'path' | 'pathParameters' | 'contract'> {
  params?: Record<string, string>;
}

/** The row of an operation id. @throws Error for an id no row has. */
export function routeOf(operationId: string): RouteDef {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`No row has operation id ${operationId}`);
  return route;
}

/** The row's path with its parameters filled in (encoded). @throws Error for a missing parameter. */
export function pathOf(route: RouteDef, params: Record<string, string> = {}): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.operationId}: path parameter ${name} missing`);
    return encodeURIComponent(value);
  });
}

/**
 * A client for every operation of the endpoint table, derived from the rows: `call(operationId,
 * request)` builds the handler of the row's module on `ports` (once), the path from the row's
 * template and the method from the row, sends `headers` unless the request gives its own, and
 * checks the reply against the row's documented responses. A new endpoint needs no client code.
 */
export function apiClient(ports: Ports & { runtime: Runtime }, headers: Record<string, string> = {}) {
  const handlers = new Map<string, Promise<ApiHandler>>();
  const handlerOf = (route: RouteDef): Promise<ApiHandler> => {
    let handler = handlers.get(route.operationId);
    if (!handler) {
      handler = import(pathToFileURL(join(root, route.handler)).href).then((mod: { makeHandler: HandlerFactory }) => mod.makeHandler(ports));
      handlers.set(route.operationId, handler);
    }
    return handler;
  };
  return {
    async call(operationId: string, request: OperationRequest = {}): Promise<Reply> {
      const route = routeOf(operationId);
      const { params = {}, ...rest } = request;
      return callRoute(await handlerOf(route), route, { ...rest, headers: request.headers ?? headers, path: pathOf(route, params) });
    },
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
