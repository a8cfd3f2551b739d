import { getRewardAssignmentRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardAssignmentReply } from '../../lib/rewards/reward.mapper.js';
import { rewardAssignmentParams } from '../../lib/rewards/reward.schema.js';
import { getRewardAssignment } from '../../lib/rewards/reward.service.js';

export const schemas = { params: rewardAssignmentParams };

export const makeHandler = endpoint(getRewardAssignmentRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toRewardAssignmentReply(await getRewardAssignment(runtime, principal.projectId, { rewardId: params.rewardId }, params.assignmentId))),
);

export const handler = makeHandler();
