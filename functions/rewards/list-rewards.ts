import { listRewardsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardListReply } from '../../lib/rewards/reward.mapper.js';
import { listRewardsQuery } from '../../lib/rewards/reward.schema.js';
import { listRewards } from '../../lib/rewards/reward.service.js';

export const schemas = { query: listRewardsQuery };

export const makeHandler = endpoint(listRewardsRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toRewardListReply(await listRewards(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
