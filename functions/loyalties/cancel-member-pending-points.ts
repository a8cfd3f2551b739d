import { cancelMemberPendingPointsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { pendingPointsParams } from '../../lib/loyalties/pending-points.schema.js';
import { cancelMemberPendingPoints } from '../../lib/loyalties/pending-points.service.js';

export const schemas = { params: pendingPointsParams };

export const makeHandler = endpoint(cancelMemberPendingPointsRoute, schemas, async ({ runtime, principal, params }) => {
  await cancelMemberPendingPoints(runtime, principal.projectId, params.memberId, params.pendingPointsId);
  return noContent();
});

export const handler = makeHandler();
