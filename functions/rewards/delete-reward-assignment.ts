import { deleteRewardAssignmentRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { rewardAssignmentParams } from '../../lib/rewards/reward.schema.js';
import { deleteRewardAssignment } from '../../lib/rewards/reward.service.js';

export const schemas = { params: rewardAssignmentParams };

export const makeHandler = endpoint(deleteRewardAssignmentRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteRewardAssignment(runtime, principal.projectId, { rewardId: params.rewardId }, params.assignmentId);
  return noContent();
});

export const handler = makeHandler();
