import { redeemRewardRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { cardMemberParams, redeemRewardBody } from '../../lib/loyalties/reward-redemption.schema.js';
import { redeemReward } from '../../lib/loyalties/reward-redemption.service.js';
import { toRewardRedemptionReply } from '../../lib/redemptions/redemption.mapper.js';

export const schemas = { params: cardMemberParams, body: redeemRewardBody };

export const makeHandler = endpoint(redeemRewardRoute, schemas, async ({ runtime, principal, params, body, idempotency }) =>
  okCommitted(await redeemReward(runtime, principal.projectId, null, params.memberId, body, idempotency), toRewardRedemptionReply),
);

export const handler = makeHandler();
