import { listMemberRewardsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { cardMemberParams, memberRewardsQuery } from '../../lib/loyalties/reward-redemption.schema.js';
import { listMemberRewards } from '../../lib/loyalties/reward-redemption.service.js';
import { toMemberRewardListReply } from '../../lib/redemptions/redemption.mapper.js';

export const schemas = { params: cardMemberParams, query: memberRewardsQuery };

export const makeHandler = endpoint(listMemberRewardsRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toMemberRewardListReply(await listMemberRewards(runtime, principal.projectId, params.memberId, query))),
);

export const handler = makeHandler();
