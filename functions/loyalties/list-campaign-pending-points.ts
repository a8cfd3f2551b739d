import { listCampaignPendingPointsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { programParams } from '../../lib/loyalties/loyalty.schema.js';
import { toPendingPointsListReply } from '../../lib/loyalties/pending-points.mapper.js';
import { pendingPointsQuery } from '../../lib/loyalties/pending-points.schema.js';
import { listCampaignPendingPoints } from '../../lib/loyalties/pending-points.service.js';

export const schemas = { params: programParams, query: pendingPointsQuery };

export const makeHandler = endpoint(listCampaignPendingPointsRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toPendingPointsListReply(await listCampaignPendingPoints(runtime, principal.projectId, params.campaignId, query))),
);

export const handler = makeHandler();
