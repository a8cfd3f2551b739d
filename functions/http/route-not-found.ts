import * as z from '../../lib/zod.js';
import { routeNotFoundRoute, routes } from '../../lib/api/routes.js';
import { openEndpoint } from '../../lib/http/endpoint.js';
import { routeNotFound } from '../../lib/http/unroutable.js';

export const schemas = { query: z.record(z.string(), z.string()) };

export const makeHandler = openEndpoint(routeNotFoundRoute, schemas, async ({ event }) => routeNotFound(routes, event));

export const handler = makeHandler();
