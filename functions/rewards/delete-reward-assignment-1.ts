import { deleteRewardAssignment1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { loyaltyRewardAssignmentParams } from '../../lib/rewards/reward.schema.js';
import { deleteRewardAssignment } from '../../lib/rewards/reward.service.js';

export const schemas = { params: loyaltyRewardAssignmentParams };

export const makeHandler = endpoint(deleteRewardAssignment1Route, schemas, async ({ runtime, principal, params }) => {
  await deleteRewardAssignment(runtime, principal.projectId, { campaignId: params.campaignId }, params.assignmentId);
  return noContent();
});

export const handler = makeHandler();
