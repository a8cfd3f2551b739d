import { getLocationRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toLocationReply } from '../../lib/locations/location.mapper.js';
import { locationParams } from '../../lib/locations/location.schema.js';
import { getLocation } from '../../lib/locations/location.service.js';

export const schemas = { params: locationParams };

export const makeHandler = endpoint(getLocationRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toLocationReply(await getLocation(runtime, principal.projectId, params.locationId))),
);

export const handler = makeHandler();
