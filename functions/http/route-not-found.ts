import * as z from '../../lib/zod.js';
import { routePaths } from '../../lib/api/route-paths.js';
import { routeNotFoundRoute } from '../../lib/api/routes.js';
import { openEndpoint } from '../../lib/http/endpoint.js';
import { routeNotFound } from '../../lib/http/unroutable.js';
import { originTrusted } from '../../lib/auth/origin-trust.repo.js';

export const schemas = { query: z.record(z.string(), z.string()) };

export const makeHandler = openEndpoint(routeNotFoundRoute, schemas, async ({ event, runtime }) =>
  routeNotFound(routePaths, event, (origin) => originTrusted(runtime, origin)),
);

export const handler = makeHandler();
