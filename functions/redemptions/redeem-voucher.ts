import { redeemVoucherRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { redeemVoucherBody, redeemVoucherParams, redeemVoucherQuery } from '../../lib/redemptions/legacy-redemption.schema.js';
import { redeemVoucher } from '../../lib/redemptions/legacy-redemption.service.js';
import { toRedemptionReply } from '../../lib/redemptions/redemption.mapper.js';

export const schemas = { params: redeemVoucherParams, query: redeemVoucherQuery, body: redeemVoucherBody };

export const makeHandler = endpoint(redeemVoucherRoute, schemas, async ({ runtime, principal, params, query, body, idempotency, requestId }) =>
  okCommitted(
    await redeemVoucher(
      runtime,
      principal.projectId,
      params.code,
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
