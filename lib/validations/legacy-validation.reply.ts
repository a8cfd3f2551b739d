import * as z from '../zod.js';
import { discountSchema } from '../campaigns/voucher-template.schema.js';
import { SESSION_TTL_UNITS } from '../redemptions/session-lock.js';
import { applicableToListReplySchema, calculatedOrderReplySchema } from './validation.reply.js';

/*
 * Reply schemas of the single-code validation calls (lib/validations/legacy-validation.mapper.ts
 * writes them): the reference's VouchersValidateResponseBody and 6_res_validate_promotion_tier, each
 * a valid and an invalid shape, both answered with HTTP 200.
 */

const amount = z.int().check(z.nonnegative());
const metadata = z.record(z.string(), z.unknown());

const sessionReply = z.strictObject({
  type: z.literal('LOCK'),
  key: z.string(),
  ttl: z.number(),
  ttl_unit: z.enum(Object.keys(SESSION_TTL_UNITS) as [keyof typeof SESSION_TTL_UNITS, ...(keyof typeof SESSION_TTL_UNITS)[]]),
});

/** Why the code is not valid: the error object of the stacked call's INAPPLICABLE redeemable, as the old calls show it. */
const legacyErrorReply = z.strictObject({
  code: z.int(),
  key: z.string(),
  message: z.string(),
  details: z.string(),
  request_id: z.optional(z.string()),
});

const validVoucher = z.strictObject({
  valid: z.literal(true),
  code: z.string(),
  applicable_to: applicableToListReplySchema,
  inapplicable_to: applicableToListReplySchema,
  campaign: z.optional(z.string()),
  campaign_id: z.optional(z.string()),
  metadata,
  discount: z.optional(discountSchema),
  gift: z.optional(
    z.strictObject({
      amount,
      subtracted_amount: amount,
      balance: z.int(),
      effect: z.optional(z.string()),
    }),
  ),
  order: calculatedOrderReplySchema,
  session: z.optional(sessionReply),
  start_date: z.optional(z.string()),
  expiration_date: z.optional(z.string()),
  tracking_id: z.optional(z.string()),
});

const invalidVoucher = z.strictObject({
  valid: z.literal(false),
  code: z.string(),
  reason: z.string(),
  error: legacyErrorReply,
  tracking_id: z.optional(z.string()),
  customer_id: z.optional(z.string()),
  metadata,
});

/** POST /v1/vouchers/{code}/validate (the reference's VouchersValidateResponseBody). */
export const voucherValidationReplySchema = z.discriminatedUnion('valid', [validVoucher, invalidVoucher]);

/** The fields every legacy tier reply carries, valid or not (also lib/validations/legacy-promotions.reply.ts). */
export const tierCommon = {
  id: z.string(),
  name: z.string(),
  banner: z.optional(z.string()),
  discount: z.optional(discountSchema),
  start_date: z.optional(z.string()),
  expiration_date: z.optional(z.string()),
  campaign: z.strictObject({
    id: z.string(),
    start_date: z.nullable(z.string()),
    expiration_date: z.nullable(z.string()),
    active: z.boolean(),
    object: z.literal('campaign'),
  }),
  hierarchy: z.int(),
  metadata,
  object: z.literal('promotion_tier'),
};

const validTier = z.strictObject({
  valid: z.literal(true),
  applicable_to: applicableToListReplySchema,
  inapplicable_to: applicableToListReplySchema,
  tracking_id: z.optional(z.string()),
  order: calculatedOrderReplySchema,
  ...tierCommon,
  discount_amount: amount,
  applied_discount_amount: amount,
});

const invalidTier = z.strictObject({
  valid: z.literal(false),
  reason: z.string(),
  error: legacyErrorReply,
  tracking_id: z.optional(z.string()),
  ...tierCommon,
});

/** POST /v1/promotions/tiers/{promotionTierId}/validation (the reference's 6_res_validate_promotion_tier). */
export const promotionTierValidationReplySchema = z.discriminatedUnion('valid', [validTier, invalidTier]);
