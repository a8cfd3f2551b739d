import { getRewardDetailsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardReply } from '../../lib/rewards/reward.mapper.js';
import { loyaltyRewardAssignmentParams } from '../../lib/rewards/reward.schema.js';
import { getRewardDetails } from '../../lib/rewards/reward.service.js';

export const schemas = { params: loyaltyRewardAssignmentParams };

export const makeHandler = endpoint(getRewardDetailsRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toRewardReply(await getRewardDetails(runtime, principal.projectId, params.campaignId, params.assignmentId))),
);

export const handler = makeHandler();
