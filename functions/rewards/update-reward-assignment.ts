import { updateRewardAssignmentRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardAssignmentReply } from '../../lib/rewards/reward.mapper.js';
import { rewardAssignmentParams, updateRewardAssignmentBody } from '../../lib/rewards/reward.schema.js';
import { updateRewardAssignment } from '../../lib/rewards/reward.service.js';

export const schemas = { params: rewardAssignmentParams, body: updateRewardAssignmentBody };

export const makeHandler = endpoint(updateRewardAssignmentRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toRewardAssignmentReply(await updateRewardAssignment(runtime, principal.projectId, { rewardId: params.rewardId }, params.assignmentId, body))),
);

export const handler = makeHandler();
