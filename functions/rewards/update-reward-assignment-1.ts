import { updateRewardAssignment1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardAssignmentReply } from '../../lib/rewards/reward.mapper.js';
import { loyaltyRewardAssignmentParams, updateRewardAssignmentBody } from '../../lib/rewards/reward.schema.js';
import { updateRewardAssignment } from '../../lib/rewards/reward.service.js';

export const schemas = { params: loyaltyRewardAssignmentParams, body: updateRewardAssignmentBody };

export const makeHandler = endpoint(updateRewardAssignment1Route, schemas, async ({ runtime, principal, params, body }) =>
  ok(toRewardAssignmentReply(await updateRewardAssignment(runtime, principal.projectId, { campaignId: params.campaignId }, params.assignmentId, body))),
);

export const handler = makeHandler();
