import { getRewardAssignment1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardAssignmentReply } from '../../lib/rewards/reward.mapper.js';
import { loyaltyRewardAssignmentParams } from '../../lib/rewards/reward.schema.js';
import { getRewardAssignment } from '../../lib/rewards/reward.service.js';

export const schemas = { params: loyaltyRewardAssignmentParams };

export const makeHandler = endpoint(getRewardAssignment1Route, schemas, async ({ runtime, principal, params }) =>
  ok(toRewardAssignmentReply(await getRewardAssignment(runtime, principal.projectId, { campaignId: params.campaignId }, params.assignmentId))),
);

export const handler = makeHandler();
