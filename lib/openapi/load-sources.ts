import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EndpointSchemas } from '../http/endpoint.js';
import type { RouteDef } from '../api/route.js';
import type { OperationSource } from './openapi-document.js';

/**
 * Imports each route's handler module (`route.handler`, relative to `root`) and reads the request
 * schemas it exports as `schemas`, the very objects its endpoint validates with.
 * @throws Error naming a handler that exports no `schemas`.
 */
export async function loadOperationSources(routes: readonly RouteDef[], root: string): Promise<OperationSource[]> {
  return Promise.all(
    routes.map(async (route) => {
      const mod = (await import(pathToFileURL(join(root, route.handler)).href)) as { schemas?: EndpointSchemas };
      if (!mod.schemas) throw new Error(`${route.handler} exports no schemas`);
      return { route, schemas: mod.schemas };
    }),
  );
}
