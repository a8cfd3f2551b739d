import { getOpenapiDocumentRoute } from '../../lib/api/routes.js';
import type { RouteDef } from '../../lib/api/route.js';
import type { ApiHandler } from '../../lib/http/endpoint.js';

/** Where this run's two servers listen, once they do. */
export interface ListeningUrls {
  api: string;
  download: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The committed document (docs/openapi.json) names the local runtime at its default ports
 * (http://localhost:3000 and :3001), the same for every run so that it stays deterministic. A run
 * on other ports (PORT, DOWNLOAD_PORT, 0) serves it with its own URLs instead, so that a tool
 * pointed at the served document calls the run it came from. Entries with a `{variable}` are the
 * deployed clusters' templates and stay as they are.
 */
export function withListeningServers(document: JsonObject, urls: ListeningUrls): JsonObject {
  const local = (servers: Json | undefined, url: string): Json | undefined =>
    Array.isArray(servers)
      ? servers.map((server) => (isObject(server) && typeof server.url === 'string' && server.url.startsWith('http://') ? { ...server, url } : server))
      : servers;
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) {
      paths[path] = item;
      continue;
    }
    const operations: JsonObject = {};
    for (const [method, operation] of Object.entries(item)) {
      // Operation-level servers are the download cluster's (lib/openapi/openapi-document.ts).
      operations[method] =
        isObject(operation) && operation.servers !== undefined ? { ...operation, servers: local(operation.servers, urls.download) ?? null } : operation;
    }
    paths[path] = operations;
  }
  return {
    ...document,
    ...(document.servers !== undefined ? { servers: local(document.servers, urls.api) ?? null } : {}),
    ...(isObject(document.paths) ? { paths } : {}),
  };
}

/**
 * The local runtime's handler wrapper: GET /v1/openapi.json's reply gets this run's URLs (above),
 * then `inner` (e.g. the tests' contract check) wraps the result as before.
 */
export function withLocalServers(
  urls: () => ListeningUrls,
  inner: ((route: RouteDef, handler: ApiHandler) => ApiHandler) | undefined,
): (route: RouteDef, handler: ApiHandler) => ApiHandler {
  return (route, handler) => {
    const served: ApiHandler =
      route.method !== getOpenapiDocumentRoute.method || route.path !== getOpenapiDocumentRoute.path
        ? handler
        : async (event, context) => {
            const result = await handler(event, context);
            const current = urls();
            if (result.statusCode !== 200 || typeof result.body !== 'string' || result.isBase64Encoded || current.api === '') return result;
            const document = JSON.parse(result.body) as Json;
            if (!isObject(document)) return result;
            return { ...result, body: JSON.stringify(withListeningServers(document, current)) };
          };
    return inner ? inner(route, served) : served;
  };
}
