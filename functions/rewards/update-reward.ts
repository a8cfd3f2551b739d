import { updateRewardRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardReply } from '../../lib/rewards/reward.mapper.js';
import { rewardParams, updateRewardBody } from '../../lib/rewards/reward.schema.js';
import { updateReward } from '../../lib/rewards/reward.service.js';

export const schemas = { params: rewardParams, body: updateRewardBody };

export const makeHandler = endpoint(updateRewardRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toRewardReply(await updateReward(runtime, principal.projectId, params.rewardId, body))),
);

export const handler = makeHandler();
