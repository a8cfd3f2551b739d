import { redeemStackedDiscountsClientSideRoute } from '../../lib/api/routes.js';
import { clientEndpoint } from '../../lib/http/client-endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { redeemStackedDiscountsBody } from '../../lib/redemptions/redeem.schema.js';
import { redeemStackedDiscountsClientSide } from '../../lib/redemptions/client-side.service.js';
import { toStackedRedemptionReply, toStackedRewardRedemptionReply } from '../../lib/redemptions/redemption.mapper.js';

export const schemas = { body: redeemStackedDiscountsBody };

export const makeHandler = clientEndpoint(redeemStackedDiscountsClientSideRoute, schemas, async ({ runtime, principal, body, idempotency, requestId }) =>
  okCommitted(
    await redeemStackedDiscountsClientSide(
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
