import { redeemVoucherClientSideRoute } from '../../lib/api/routes.js';
import { clientEndpoint } from '../../lib/http/client-endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { redeemVoucherBody, redeemVoucherClientSideQuery } from '../../lib/redemptions/legacy-redemption.schema.js';
import { redeemVoucherClientSide } from '../../lib/redemptions/client-side.service.js';
import { toRedemptionReply } from '../../lib/redemptions/redemption.mapper.js';

export const schemas = { query: redeemVoucherClientSideQuery, body: redeemVoucherBody };

export const makeHandler = clientEndpoint(redeemVoucherClientSideRoute, schemas, async ({ runtime, principal, query, body, idempotency, requestId }) =>
  okCommitted(
    await redeemVoucherClientSide(
      runtime,
      principal.projectId,
      query.code,
      body,
      query.tracking_id,
      idempotency,
      (redemption) => toRedemptionReply(redemption),
      requestId,
    ),
    (reply) => reply,
  ),
);

export const handler = makeHandler();
