import * as z from '../zod.js';
import { validatePromotionTierBody, validateVoucherBody } from '../validations/legacy-validation.schema.js';

/*
 * The single-code redemption calls older clients still use (POST /v1/vouchers/{code}/redemption,
 * POST /v1/promotions/tiers/{promotionTierId}/redemption): the old validation bodies, redeemed through
 * POST /v1/redemptions' engine (lib/redemptions/legacy-redemption.service.ts).
 */

const id = z.string().check(z.minLength(1), z.maxLength(1000));

export const redeemVoucherParams = z.strictObject({ code: id });
export const redeemPromotionParams = z.strictObject({ promotionTierId: id });

/** The reference's `tracking_id` query parameter of redeem-voucher. */
export const redeemVoucherQuery = z.strictObject({ tracking_id: z.optional(id) });
export type RedeemVoucherQuery = z.output<typeof redeemVoucherQuery>;

/** POST /client/v1/redeem: the code and the tracking id in the query (the reference's client form), the body as the server call's. */
export const redeemVoucherClientSideQuery = z.strictObject({
  code: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(1000)),
  tracking_id: z.optional(id),
});

/** POST /v1/vouchers/{code}/redemption (the reference's 7_req_redeem_voucher): a validate-voucher body; the tracking id comes in the query. */
export const redeemVoucherBody = z.strictObject({
  order: validateVoucherBody.shape.order,
  customer: validateVoucherBody.shape.customer,
  session: validateVoucherBody.shape.session,
  metadata: validateVoucherBody.shape.metadata,
  gift: validateVoucherBody.shape.gift,
  options: validateVoucherBody.shape.options,
  reward: validateVoucherBody.shape.reward,
});
export type RedeemVoucherBody = z.output<typeof redeemVoucherBody>;

/** POST /v1/promotions/tiers/{promotionTierId}/redemption (the reference's 7_req_redeem_promotion_tier). */
export const redeemPromotionBody = validatePromotionTierBody;
export type RedeemPromotionBody = z.output<typeof redeemPromotionBody>;
