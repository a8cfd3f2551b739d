import { listRewardAssignments1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardAssignmentListReply } from '../../lib/rewards/reward.mapper.js';
import { listRewardAssignments1Query, loyaltyRewardsParams } from '../../lib/rewards/reward.schema.js';
import { listRewardAssignments } from '../../lib/rewards/reward.service.js';

export const schemas = { params: loyaltyRewardsParams, query: listRewardAssignments1Query };

export const makeHandler = endpoint(listRewardAssignments1Route, schemas, async ({ runtime, principal, params, query }) =>
  ok(toRewardAssignmentListReply(await listRewardAssignments(runtime, principal.projectId, { campaignId: params.campaignId }, query))),
);

export const handler = makeHandler();
