import { createRewardAssignmentRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardAssignmentReply } from '../../lib/rewards/reward.mapper.js';
import { createRewardAssignmentBody, rewardParams } from '../../lib/rewards/reward.schema.js';
import { createRewardAssignment } from '../../lib/rewards/reward.service.js';

export const schemas = { params: rewardParams, body: createRewardAssignmentBody };

export const makeHandler = endpoint(createRewardAssignmentRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toRewardAssignmentReply(await createRewardAssignment(runtime, principal.projectId, params.rewardId, body))),
);

export const handler = makeHandler();
