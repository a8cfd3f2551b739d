import { redeemStackedDiscountsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { redeemStackedDiscountsBody } from '../../lib/redemptions/redeem.schema.js';
import { redeemStackedDiscounts } from '../../lib/redemptions/redeem.service.js';
import { toStackedRedemptionReply, toStackedRewardRedemptionReply } from '../../lib/redemptions/redemption.mapper.js';

export const schemas = { body: redeemStackedDiscountsBody };

export const makeHandler = endpoint(redeemStackedDiscountsRoute, schemas, async ({ runtime, principal, body, idempotency, requestId }) =>
  okCommitted(
    await redeemStackedDiscounts(
      runtime,
      principal.projectId,
      body,
      idempotency,
      (committed, evaluation) => toStackedRedemptionReply(committed, evaluation, requestId),
      toStackedRewardRedemptionReply,
      requestId,
    ),
    (reply) => reply,
  ),
);

export const handler = makeHandler();
