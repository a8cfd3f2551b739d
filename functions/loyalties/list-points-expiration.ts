import { listPointsExpirationRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toBucketPageReply } from '../../lib/loyalties/loyalty.mapper.js';
import { memberParams, pointsExpirationQuery } from '../../lib/loyalties/loyalty.schema.js';
import { listPointsExpiration } from '../../lib/loyalties/loyalty.service.js';

export const schemas = { params: memberParams, query: pointsExpirationQuery };

export const makeHandler = endpoint(listPointsExpirationRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toBucketPageReply(await listPointsExpiration(runtime, principal.projectId, params.campaignId, params.memberId, query))),
);

export const handler = makeHandler();
