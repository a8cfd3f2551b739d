import { redeemReward1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { programMemberParams, redeemRewardBody } from '../../lib/loyalties/reward-redemption.schema.js';
import { redeemReward } from '../../lib/loyalties/reward-redemption.service.js';
import { toRewardRedemptionReply } from '../../lib/redemptions/redemption.mapper.js';

export const schemas = { params: programMemberParams, body: redeemRewardBody };

export const makeHandler = endpoint(redeemReward1Route, schemas, async ({ runtime, principal, params, body, idempotency }) =>
  okCommitted(await redeemReward(runtime, principal.projectId, params.campaignId, params.memberId, body, idempotency), toRewardRedemptionReply),
);

export const handler = makeHandler();
