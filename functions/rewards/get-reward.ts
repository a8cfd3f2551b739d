import { getRewardRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardReply } from '../../lib/rewards/reward.mapper.js';
import { rewardParams } from '../../lib/rewards/reward.schema.js';
import { getReward } from '../../lib/rewards/reward.service.js';

export const schemas = { params: rewardParams };

export const makeHandler = endpoint(getRewardRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toRewardReply(await getReward(runtime, principal.projectId, params.rewardId))),
);

export const handler = makeHandler();
