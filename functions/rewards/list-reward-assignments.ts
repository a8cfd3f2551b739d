import { listRewardAssignmentsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardAssignmentListReply } from '../../lib/rewards/reward.mapper.js';
import { listRewardAssignmentsQuery, rewardParams } from '../../lib/rewards/reward.schema.js';
import { listRewardAssignments } from '../../lib/rewards/reward.service.js';

export const schemas = { params: rewardParams, query: listRewardAssignmentsQuery };

export const makeHandler = endpoint(listRewardAssignmentsRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toRewardAssignmentListReply(await listRewardAssignments(runtime, principal.projectId, { rewardId: params.rewardId }, query))),
);

export const handler = makeHandler();
