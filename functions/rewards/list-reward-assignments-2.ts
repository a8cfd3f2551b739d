import { listRewardAssignments2Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardAssignmentListReply } from '../../lib/rewards/reward.mapper.js';
import { listLoyaltyRewardAssignmentsQuery, loyaltyRewardsParams } from '../../lib/rewards/reward.schema.js';
import { listRewardAssignments } from '../../lib/rewards/reward.service.js';

export const schemas = { params: loyaltyRewardsParams, query: listLoyaltyRewardAssignmentsQuery };

export const makeHandler = endpoint(listRewardAssignments2Route, schemas, async ({ runtime, principal, params, query }) =>
  ok(toRewardAssignmentListReply(await listRewardAssignments(runtime, principal.projectId, { campaignId: params.campaignId }, query))),
);

export const handler = makeHandler();
