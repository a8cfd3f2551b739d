import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { discountSchema } from '../campaigns/voucher-template.schema.js';
import { categoryReplySchema } from '../categories/category.reply.js';
import { validationRuleAssignmentListReplySchema } from '../validation-rules/validation-rule.reply.js';
import { applicableToListReplySchema, calculatedOrderReplySchema, stackingRulesReplySchema } from '../validations/validation.reply.js';

/*
 * Reply schema of POST /v1/qualifications (lib/qualifications/qualification.mapper.ts writes it).
 * Only the OpenAPI generator and the tests import this module.
 */

const amount = z.int().check(z.nonnegative());

/** One qualified redeemable (the reference's QualificationsRedeemableBase). */
export const qualifiedRedeemableReplySchema = z.strictObject({
  id: z.string(),
  object: z.enum(['voucher', 'promotion_tier']),
  created_at: z.iso.datetime(),
  result: z.strictObject({
    discount: z.optional(discountSchema),
    gift: z.optional(z.strictObject({ balance: amount, credits: amount })),
    loyalty_card: z.optional(z.strictObject({ points: z.int(), balance: z.int() })),
  }),
  /** The order after this redeemable alone; absent when it was evaluated without the order (AUDIENCE_ONLY). */
  order: z.optional(calculatedOrderReplySchema),
  applicable_to: applicableToListReplySchema,
  inapplicable_to: applicableToListReplySchema,
  metadata: z.record(z.string(), z.unknown()),
  categories: z.array(z.strictObject({ ...categoryReplySchema.shape, stacking_rules_type: z.optional(z.enum(['JOINT', 'EXCLUSIVE'])) })),
  banner: z.optional(z.string()),
  name: z.optional(z.string()),
  campaign_name: z.optional(z.string()),
  campaign_id: z.optional(z.string()),
  /** With `options.expand` holding `validation_rules`: the redeemable's own rule assignments (a voucher's or a tier's, not its campaign's). */
  validation_rules_assignments: z.optional(validationRuleAssignmentListReplySchema),
});

/** POST /v1/qualifications (the reference's QualificationsCheckEligibilityResponseBody). */
export const qualificationReplySchema = z.strictObject({
  redeemables: listReply(qualifiedRedeemableReplySchema, {
    dataRef: 'data',
    total: amount,
    hasMore: true,
    after: { more_starting_after: z.optional(z.iso.datetime()) },
  }),
  tracking_id: z.optional(z.string()),
  order: calculatedOrderReplySchema,
  stacking_rules: stackingRulesReplySchema,
});
