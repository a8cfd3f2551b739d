import { listLoyaltyTierRewardsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toTierRewardListReply } from '../../lib/loyalties/tier.mapper.js';
import { tierPageQuery, tierParams } from '../../lib/loyalties/tier.schema.js';
import { listLoyaltyTierRewards } from '../../lib/loyalties/tier.service.js';

export const schemas = { params: tierParams, query: tierPageQuery };

export const makeHandler = endpoint(listLoyaltyTierRewardsRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toTierRewardListReply(await listLoyaltyTierRewards(runtime, principal.projectId, params.campaignId, params.loyaltyTierId, query))),
);

export const handler = makeHandler();
