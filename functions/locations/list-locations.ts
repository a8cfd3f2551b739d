import { listLocationsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toLocationListReply } from '../../lib/locations/location.mapper.js';
import { listLocationsQuery } from '../../lib/locations/location.schema.js';
import { listLocations } from '../../lib/locations/location.service.js';

export const schemas = { query: listLocationsQuery };

export const makeHandler = endpoint(listLocationsRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toLocationListReply(await listLocations(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
