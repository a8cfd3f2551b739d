import { listMemberPendingPoints1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { memberParams } from '../../lib/loyalties/loyalty.schema.js';
import { toPendingPointsListReply } from '../../lib/loyalties/pending-points.mapper.js';
import { pendingPointsQuery } from '../../lib/loyalties/pending-points.schema.js';
import { listMemberPendingPoints } from '../../lib/loyalties/pending-points.service.js';

export const schemas = { params: memberParams, query: pendingPointsQuery };

export const makeHandler = endpoint(listMemberPendingPoints1Route, schemas, async ({ runtime, principal, params, query }) =>
  ok(toPendingPointsListReply(await listMemberPendingPoints(runtime, principal.projectId, params.campaignId, params.memberId, query))),
);

export const handler = makeHandler();
