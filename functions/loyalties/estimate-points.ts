import { estimatePointsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toPointsEstimateReply } from '../../lib/loyalties/estimate-points.mapper.js';
import { estimatePointsBody } from '../../lib/loyalties/estimate-points.schema.js';
import { estimatePoints } from '../../lib/loyalties/estimate-points.service.js';
import { tierProgramParams } from '../../lib/loyalties/tier.schema.js';

export const schemas = { params: tierProgramParams, body: estimatePointsBody };

export const makeHandler = endpoint(estimatePointsRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toPointsEstimateReply(await estimatePoints(runtime, principal.projectId, params.campaignId, body))),
);

export const handler = makeHandler();
