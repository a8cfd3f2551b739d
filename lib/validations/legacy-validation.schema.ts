import * as z from '../zod.js';
import { refusedField } from '../not-built.schema.js';
import { stackedCustomerField, stackedMetadataField, stackedOrderField, stackedSessionField, stackedTrackingIdField } from './validation.schema.js';

/*
 * The single-code validation calls older clients still use (POST /v1/vouchers/{code}/validate,
 * POST /v1/promotions/tiers/{promotionTierId}/validation). Their bodies are the stacked request's fields
 * without `redeemables`: the path names the one redeemable (lib/validations/legacy-validation.service.ts).
 */

const id = z.string().check(z.minLength(1), z.maxLength(1000));
const credits = z.int().check(z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER));

export const validateVoucherParams = z.strictObject({ code: id });
/** Named `promotionTierId` (the reference: `tierId`) because API Gateway allows one variable name per path level. */
export const validatePromotionTierParams = z.strictObject({ promotionTierId: id });

/**
 * POST /v1/vouchers/{code}/validate (the reference's VouchersValidateDiscountRequestBody and
 * VouchersValidateGiftRequestBody). `gift.credits` asks for gift card credits; `options.expand`
 * (`category`) is accepted, the reply always names the voucher's categories through the engine.
 */
export const validateVoucherBody = z.strictObject({
  order: stackedOrderField,
  customer: stackedCustomerField,
  session: stackedSessionField,
  tracking_id: stackedTrackingIdField,
  metadata: stackedMetadataField,
  gift: z.optional(z.strictObject({ credits: z.optional(credits) })),
  options: z.optional(z.strictObject({ expand: z.optional(z.array(z.literal('category')).check(z.maxLength(1))) })),
  // The loyalty-card branch: dropped, a reward asked for would turn into a plain use of the card.
  reward: refusedField('loyalty rewards are redeemed through POST /v1/loyalties/members/{memberId}/redemption or POST /v1/redemptions'),
});
export type ValidateVoucherBody = z.output<typeof validateVoucherBody>;

/** POST /v1/promotions/tiers/{promotionTierId}/validation (the reference's 6_req_validate_promotion_tier). */
export const validatePromotionTierBody = z.strictObject({
  order: stackedOrderField,
  customer: stackedCustomerField,
  metadata: stackedMetadataField,
});
export type ValidatePromotionTierBody = z.output<typeof validatePromotionTierBody>;
