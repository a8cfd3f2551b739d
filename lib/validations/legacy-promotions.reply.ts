import * as z from '../zod.js';
import { tierCommon } from './legacy-validation.reply.js';
import { applicableToListReplySchema, calculatedOrderReplySchema } from './validation.reply.js';

/* Reply schema of the legacy POST /v1/promotions/validation (lib/validations/legacy-promotions.mapper.ts writes it). */

const amount = z.int().check(z.nonnegative());

/** One qualifying tier (the reference's 6_res_validate_promotion_object), with the order after it alone. */
const validPromotion = z.strictObject({
  valid: z.literal(true),
  applicable_to: applicableToListReplySchema,
  inapplicable_to: applicableToListReplySchema,
  tracking_id: z.optional(z.string()),
  order: calculatedOrderReplySchema,
  ...tierCommon,
  discount_amount: amount,
  applied_discount_amount: amount,
});

/** POST /v1/promotions/validation (the reference's 6_res_validate_promotion): `valid` when any tier qualifies. */
export const promotionsValidationReplySchema = z.strictObject({
  valid: z.boolean(),
  tracking_id: z.optional(z.string()),
  promotions: z.array(validPromotion),
});
