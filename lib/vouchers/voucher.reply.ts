import * as z from '../zod.js';
import { VOUCHER_TYPES, validationRulesAssignmentListSchema } from '../campaigns/campaign.reply.js';
import { discountSchema, validityDayOfWeekSchema, validityHoursSchema, validityTimeframeSchema } from '../campaigns/voucher-template.schema.js';
import { categoryReplySchema } from '../categories/category.reply.js';

/*
 * Reply schemas of the voucher endpoints (lib/vouchers/voucher.mapper.ts writes these shapes).
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const timestamp = z.iso.datetime();
const asset = z.strictObject({ id: z.string(), url: z.string() });

/** The voucher object of the spec: every field it lists, unset ones as null. */
export const voucherReplySchema = z.strictObject({
  id: z.string(),
  code: z.string(),
  campaign: z.nullable(z.string()),
  campaign_id: z.nullable(z.string()),
  category: z.nullable(z.string()),
  category_id: z.nullable(z.string()),
  categories: z.array(categoryReplySchema),
  type: z.enum(VOUCHER_TYPES),
  discount: z.nullable(discountSchema),
  gift: z.nullable(
    z.strictObject({
      amount: z.int().check(z.nonnegative()),
      subtracted_amount: z.int().check(z.nonnegative()),
      balance: z.int(),
      effect: z.optional(z.string()),
    }),
  ),
  loyalty_card: z.nullable(
    z.strictObject({
      points: z.int(),
      balance: z.int(),
      next_expiration_date: z.optional(z.iso.date()),
      next_expiration_points: z.optional(z.int()),
      pending_points: z.int(),
      expired_points: z.int(),
      subtracted_points: z.int(),
    }),
  ),
  start_date: z.nullable(timestamp),
  expiration_date: z.nullable(timestamp),
  validity_timeframe: z.nullable(validityTimeframeSchema),
  validity_day_of_week: z.nullable(validityDayOfWeekSchema),
  validity_hours: z.nullable(validityHoursSchema),
  active: z.boolean(),
  additional_info: z.nullable(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  assets: z.strictObject({ qr: asset, barcode: asset }),
  is_referral_code: z.boolean(),
  created_at: timestamp,
  updated_at: z.nullable(timestamp),
  holder_id: z.nullable(z.string()),
  referrer_id: z.nullable(z.string()),
  validation_rules_assignments: validationRulesAssignmentListSchema,
  redemption: z.strictObject({
    quantity: z.nullable(z.int().check(z.nonnegative())),
    redeemed_quantity: z.int().check(z.nonnegative()),
    redeemed_points: z.int().check(z.nonnegative()),
    object: z.literal('list'),
    url: z.string(),
  }),
  publish: z.strictObject({ object: z.literal('list'), count: z.int().check(z.nonnegative()), url: z.string() }),
  object: z.literal('voucher'),
});
export type VoucherReply = z.output<typeof voucherReplySchema>;

/** 202 of POST /v1/campaigns/{campaignId}/vouchers with vouchers_count > 1: poll GET /v1/async-actions/{id}. */
export const asyncActionAcceptedReplySchema = z.strictObject({ async_action_id: z.string() });
