import { redeemPromotionRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { redeemPromotionBody, redeemPromotionParams } from '../../lib/redemptions/legacy-redemption.schema.js';
import { redeemPromotion } from '../../lib/redemptions/legacy-redemption.service.js';
import { toRedemptionReply } from '../../lib/redemptions/redemption.mapper.js';

export const schemas = { params: redeemPromotionParams, body: redeemPromotionBody };

export const makeHandler = endpoint(redeemPromotionRoute, schemas, async ({ runtime, principal, params, body, idempotency, requestId }) =>
  okCommitted(
    await redeemPromotion(runtime, principal.projectId, params.promotionTierId, body, idempotency, (redemption) => toRedemptionReply(redemption), requestId),
    (reply) => reply,
  ),
);

export const handler = makeHandler();
