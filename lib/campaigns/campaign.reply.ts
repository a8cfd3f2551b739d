import * as z from 'zod';
import { categoryReplySchema } from '../categories/category.reply.js';
import {
  CAMPAIGN_STATUSES,
  CAMPAIGN_TYPES,
  discountSchema,
  giftSchema,
  loyaltyCardTemplateSchema,
  referralProgramSchema,
  validityDayOfWeekSchema,
  validityHoursSchema,
  validityTimeframeSchema,
} from './campaign.schema.js';

/*
 * Reply schemas of the campaign endpoints (lib/campaigns/campaign.mapper.ts writes these shapes).
 * Kept apart from campaign.schema.ts so that handler bundles, which import the request schemas,
 * do not carry them: only the OpenAPI generator and the tests read this module.
 */

const timestamp = z.iso.datetime();

export const VOUCHER_TYPES = ['DISCOUNT_VOUCHER', 'GIFT_VOUCHER', 'LOYALTY_CARD'] as const;

/** A validation rules assignment record (spec): no rule can be assigned yet, so lists are empty. */
export const validationRulesAssignmentSchema = z.strictObject({
  id: z.string(),
  rule_id: z.string(),
  related_object_id: z.string(),
  related_object_type: z.string(),
  object: z.literal('validation_rules_assignment'),
  validation_status: z.string().optional(),
  validation_omitted_rules: z.array(z.string()).optional(),
});

export const validationRulesAssignmentListSchema = z.strictObject({
  object: z.literal('list'),
  data_ref: z.literal('data'),
  data: z.array(validationRulesAssignmentSchema),
  total: z.int().nonnegative(),
});

/** `code_config` as stored: length, charset and pattern always; the rest once set. */
export const codeConfigReplySchema = z.strictObject({
  length: z.int().positive(),
  charset: z.string(),
  pattern: z.string(),
  prefix: z.string().optional(),
  postfix: z.string().optional(),
  initial_count: z.int().nonnegative().optional(),
});

/** Validity fields that are set; unset ones are left out, as Voucherify does. */
const validityShape = {
  start_date: timestamp.optional(),
  expiration_date: timestamp.optional(),
  validity_timeframe: validityTimeframeSchema.optional(),
  validity_day_of_week: validityDayOfWeekSchema.optional(),
  validity_hours: validityHoursSchema.optional(),
};

const campaignVoucherTemplateSchema = z.strictObject({
  type: z.enum(VOUCHER_TYPES),
  discount: discountSchema.optional(),
  gift: giftSchema.optional(),
  loyalty_card: loyaltyCardTemplateSchema.optional(),
  redemption: z.strictObject({ quantity: z.int().nonnegative().nullable() }),
  code_config: codeConfigReplySchema,
  is_referral_code: z.boolean(),
  start_date: timestamp.optional(),
  expiration_date: timestamp.optional(),
  validity_timeframe: validityTimeframeSchema.optional(),
});

export const promotionTierReplySchema = z.strictObject({
  id: z.string(),
  created_at: timestamp,
  updated_at: timestamp.optional(),
  name: z.string(),
  banner: z.string().optional(),
  action: z.strictObject({ discount: discountSchema.optional() }),
  metadata: z.record(z.string(), z.unknown()),
  hierarchy: z.int(),
  promotion_id: z.string(),
  campaign: z.strictObject({
    id: z.string(),
    ...validityShape,
    active: z.boolean(),
    category_id: z.string().nullable(),
    object: z.literal('campaign'),
  }),
  campaign_id: z.string(),
  active: z.boolean(),
  ...validityShape,
  summary: z.strictObject({
    redemptions: z.strictObject({ total_redeemed: z.int().nonnegative() }),
    orders: z.strictObject({ total_amount: z.int().nonnegative(), total_discount_amount: z.int().nonnegative() }),
  }),
  object: z.literal('promotion_tier'),
  // Voucherify spells it without the s on promotion tiers.
  validation_rule_assignments: validationRulesAssignmentListSchema,
  category_id: z.string().nullable(),
  categories: z.array(categoryReplySchema),
});

/** The campaign object of the spec. */
export const campaignReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  campaign_type: z.enum(CAMPAIGN_TYPES),
  type: z.enum(['AUTO_UPDATE', 'STATIC', 'STANDALONE']),
  voucher: campaignVoucherTemplateSchema.optional(),
  referral_program: referralProgramSchema.optional(),
  auto_join: z.boolean(),
  join_once: z.boolean(),
  use_voucher_metadata_schema: z.boolean(),
  ...validityShape,
  activity_duration_after_publishing: z.iso.duration().optional(),
  vouchers_count: z.int().nonnegative(),
  active: z.boolean(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: timestamp,
  updated_at: timestamp.optional(),
  category: z.string().optional(),
  creation_status: z.enum(CAMPAIGN_STATUSES),
  vouchers_generation_status: z.enum(CAMPAIGN_STATUSES),
  protected: z.boolean(),
  validation_rules_assignments: validationRulesAssignmentListSchema,
  promotion: z
    .strictObject({
      object: z.literal('list'),
      data_ref: z.literal('tiers'),
      tiers: z.array(promotionTierReplySchema),
      total: z.int().nonnegative(),
      has_more: z.boolean(),
    })
    .optional(),
  category_id: z.string().nullable(),
  categories: z.array(categoryReplySchema),
  object: z.literal('campaign'),
});
export type CampaignReply = z.output<typeof campaignReplySchema>;

/** Areas and stores do not exist here: `expand=access_settings_assignments` adds an empty list. */
const accessSettingsAssignmentsSchema = z.strictObject({
  object: z.literal('list'),
  data_ref: z.literal('data'),
  data: z.array(z.record(z.string(), z.unknown())),
  total: z.int().nonnegative(),
});

/** GET /v1/campaigns. */
export const campaignListReplySchema = z.strictObject({
  object: z.literal('list'),
  data_ref: z.literal('campaigns'),
  campaigns: z.array(campaignReplySchema.extend({ access_settings_assignments: accessSettingsAssignmentsSchema.optional() })),
  total: z.int().nonnegative(),
});
export type CampaignListReply = z.output<typeof campaignListReplySchema>;
