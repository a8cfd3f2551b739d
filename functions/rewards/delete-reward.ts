import { deleteRewardRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { rewardParams } from '../../lib/rewards/reward.schema.js';
import { deleteReward } from '../../lib/rewards/reward.service.js';

export const schemas = { params: rewardParams };

export const makeHandler = endpoint(deleteRewardRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteReward(runtime, principal.projectId, params.rewardId);
  return noContent();
});

export const handler = makeHandler();
