import { adjustMemberPendingPointsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { toPendingAdjustmentReply } from '../../lib/loyalties/pending-points.mapper.js';
import { pendingPointsAdjustBody, pendingPointsParams } from '../../lib/loyalties/pending-points.schema.js';
import { adjustMemberPendingPoints } from '../../lib/loyalties/pending-points.service.js';

export const schemas = { params: pendingPointsParams, body: pendingPointsAdjustBody };

export const makeHandler = endpoint(adjustMemberPendingPointsRoute, schemas, async ({ runtime, principal, params, body, idempotency }) =>
  okCommitted(
    await adjustMemberPendingPoints(runtime, principal.projectId, params.memberId, params.pendingPointsId, body, idempotency),
    toPendingAdjustmentReply,
  ),
);

export const handler = makeHandler();
