import { createRewardAssignment1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardAssignmentReply } from '../../lib/rewards/reward.mapper.js';
import { createLoyaltyRewardAssignmentBody, loyaltyRewardsParams } from '../../lib/rewards/reward.schema.js';
import { createRewardAssignment } from '../../lib/rewards/reward.service.js';

export const schemas = { params: loyaltyRewardsParams, body: createLoyaltyRewardAssignmentBody };

export const makeHandler = endpoint(createRewardAssignment1Route, schemas, async ({ runtime, principal, params, body: item }) =>
  ok(
    toRewardAssignmentReply(
      await createRewardAssignment(runtime, principal.projectId, item.reward, {
        campaign: params.campaignId,
        parameters: item.parameters,
        validation_rules: item.validation_rules,
      }),
    ),
  ),
);

export const handler = makeHandler();
