import * as z from 'zod';
import { VOUCHER_TYPES, validationRulesAssignmentListSchema } from '../campaigns/campaign.reply.js';
import { discountSchema, validityDayOfWeekSchema, validityHoursSchema, validityTimeframeSchema } from '../campaigns/campaign.schema.js';
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
  campaign: z.string().nullable(),
  campaign_id: z.string().nullable(),
  category: z.string().nullable(),
  category_id: z.string().nullable(),
  categories: z.array(categoryReplySchema),
  type: z.enum(VOUCHER_TYPES),
  discount: discountSchema.nullable(),
  gift: z
    .strictObject({
      amount: z.int().nonnegative(),
      subtracted_amount: z.int().nonnegative(),
      balance: z.int(),
      effect: z.string().optional(),
    })
    .nullable(),
  loyalty_card: z
    .strictObject({
      points: z.int(),
      balance: z.int(),
      next_expiration_date: z.iso.date().optional(),
      next_expiration_points: z.int().optional(),
      pending_points: z.int(),
      expired_points: z.int(),
      subtracted_points: z.int(),
    })
    .nullable(),
  start_date: timestamp.nullable(),
  expiration_date: timestamp.nullable(),
  validity_timeframe: validityTimeframeSchema.nullable(),
  validity_day_of_week: validityDayOfWeekSchema.nullable(),
  validity_hours: validityHoursSchema.nullable(),
  active: z.boolean(),
  additional_info: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  assets: z.strictObject({ qr: asset, barcode: asset }),
  is_referral_code: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp.nullable(),
  holder_id: z.string().nullable(),
  referrer_id: z.string().nullable(),
  validation_rules_assignments: validationRulesAssignmentListSchema,
  redemption: z.strictObject({
    quantity: z.int().nonnegative().nullable(),
    redeemed_quantity: z.int().nonnegative(),
    redeemed_points: z.int().nonnegative(),
    object: z.literal('list'),
    url: z.string(),
  }),
  publish: z.strictObject({ object: z.literal('list'), count: z.int().nonnegative(), url: z.string() }),
  object: z.literal('voucher'),
});
export type VoucherReply = z.output<typeof voucherReplySchema>;

/** 202 of POST /v1/campaigns/{campaignId}/vouchers with vouchers_count > 1: poll GET /v1/async-actions/{id}. */
export const asyncActionAcceptedReplySchema = z.strictObject({ async_action_id: z.string() });
