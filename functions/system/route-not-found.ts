import * as z from '../../lib/zod.js';
import { fallbackRoute, routes } from '../../infra/routes.js';
import { openEndpoint } from '../../lib/http/endpoint.js';
import { rejectUnroutable } from '../../lib/http/unroutable.js';

export const schemas = { query: z.record(z.string(), z.string()) };

export const makeHandler = openEndpoint(fallbackRoute, schemas, async ({ event }) => rejectUnroutable(routes, event));

export const handler = makeHandler();
