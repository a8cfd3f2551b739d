import { activateMemberPendingPointsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { toPendingActivationReply } from '../../lib/loyalties/pending-points.mapper.js';
import { pendingPointsParams } from '../../lib/loyalties/pending-points.schema.js';
import { activateMemberPendingPoints } from '../../lib/loyalties/pending-points.service.js';

export const schemas = { params: pendingPointsParams };

export const makeHandler = endpoint(activateMemberPendingPointsRoute, schemas, async ({ runtime, principal, params, idempotency }) =>
  okCommitted(await activateMemberPendingPoints(runtime, principal.projectId, params.memberId, params.pendingPointsId, idempotency), toPendingActivationReply),
);

export const handler = makeHandler();
