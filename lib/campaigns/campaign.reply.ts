import { tiersExpirationSchema } from '../loyalties/tier.schema.js';
import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { categoryReplySchema } from '../categories/category.reply.js';
import { CAMPAIGN_STATUSES, CAMPAIGN_TYPES } from './campaign.js';
import { referralProgramSchema } from './campaign.schema.js';
import * as template from './voucher-template.schema.js';

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
  validation_status: z.optional(z.string()),
  validation_omitted_rules: z.optional(z.array(z.string())),
  // Voucherify's assignment record has timestamps too; the list is always empty here (no validation rules).
  created_at: z.optional(z.iso.datetime()),
  updated_at: z.optional(z.nullable(z.iso.datetime())),
});

export const validationRulesAssignmentListSchema = listReply(validationRulesAssignmentSchema, { dataRef: 'data' });

/** `code_config` as stored: length, charset and pattern always; the rest once set. */
export const codeConfigReplySchema = z.strictObject({
  length: z.int().check(z.positive()),
  charset: z.string(),
  pattern: z.string(),
  prefix: z.optional(z.string()),
  postfix: z.optional(z.string()),
  initial_count: z.optional(z.int().check(z.nonnegative())),
});

/** Validity fields that are set; unset ones are left out, as Voucherify does. */
const validityShape = {
  start_date: z.optional(timestamp),
  expiration_date: z.optional(timestamp),
  validity_timeframe: z.optional(template.validityTimeframeSchema),
  validity_day_of_week: z.optional(template.validityDayOfWeekSchema),
  validity_hours: z.optional(template.validityHoursSchema),
};

const campaignVoucherTemplateSchema = z.strictObject({
  type: z.enum(VOUCHER_TYPES),
  discount: z.optional(template.discountSchema),
  gift: z.optional(template.giftSchema),
  loyalty_card: z.optional(template.loyaltyCardTemplateSchema),
  redemption: z.strictObject({ quantity: z.nullable(z.int().check(z.nonnegative())) }),
  code_config: codeConfigReplySchema,
  is_referral_code: z.boolean(),
  start_date: z.optional(timestamp),
  expiration_date: z.optional(timestamp),
  validity_timeframe: z.optional(template.validityTimeframeSchema),
});

export const promotionTierReplySchema = z.strictObject({
  id: z.string(),
  created_at: timestamp,
  updated_at: z.optional(timestamp),
  name: z.string(),
  banner: z.optional(z.string()),
  action: z.strictObject({ discount: z.optional(template.discountSchema) }),
  metadata: z.record(z.string(), z.unknown()),
  hierarchy: z.int(),
  promotion_id: z.string(),
  campaign: z.strictObject({
    id: z.string(),
    ...validityShape,
    active: z.boolean(),
    category_id: z.nullable(z.string()),
    object: z.literal('campaign'),
  }),
  campaign_id: z.string(),
  active: z.boolean(),
  ...validityShape,
  summary: z.strictObject({
    redemptions: z.strictObject({ total_redeemed: z.int().check(z.nonnegative()) }),
    orders: z.strictObject({ total_amount: z.int().check(z.nonnegative()), total_discount_amount: z.int().check(z.nonnegative()) }),
  }),
  object: z.literal('promotion_tier'),
  // Voucherify spells it without the s on promotion tiers.
  validation_rule_assignments: validationRulesAssignmentListSchema,
  category_id: z.nullable(z.string()),
  categories: z.array(categoryReplySchema),
});

/** The campaign object of the spec. */
export const campaignReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  campaign_type: z.enum(CAMPAIGN_TYPES),
  type: z.enum(['AUTO_UPDATE', 'STATIC', 'STANDALONE']),
  voucher: z.optional(campaignVoucherTemplateSchema),
  referral_program: z.optional(referralProgramSchema),
  loyalty_tiers_expiration: z.optional(tiersExpirationSchema),
  auto_join: z.boolean(),
  join_once: z.boolean(),
  use_voucher_metadata_schema: z.boolean(),
  ...validityShape,
  activity_duration_after_publishing: z.optional(z.iso.duration()),
  vouchers_count: z.int().check(z.nonnegative()),
  active: z.boolean(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: timestamp,
  updated_at: z.optional(timestamp),
  category: z.optional(z.string()),
  creation_status: z.enum(CAMPAIGN_STATUSES),
  vouchers_generation_status: z.enum(CAMPAIGN_STATUSES),
  protected: z.boolean(),
  validation_rules_assignments: validationRulesAssignmentListSchema,
  promotion: z.optional(listReply(promotionTierReplySchema, { dataRef: 'tiers', hasMore: true })),
  category_id: z.nullable(z.string()),
  categories: z.array(categoryReplySchema),
  object: z.literal('campaign'),
});
export type CampaignReply = z.output<typeof campaignReplySchema>;

/** Areas and stores do not exist here: `expand=access_settings_assignments` adds an empty list. */
const accessSettingsAssignmentsSchema = listReply(z.record(z.string(), z.unknown()), { dataRef: 'data' });

/** GET /v1/campaigns. */
export const campaignListReplySchema = listReply(z.extend(campaignReplySchema, { access_settings_assignments: z.optional(accessSettingsAssignmentsSchema) }), {
  dataRef: 'campaigns',
});
export type CampaignListReply = z.output<typeof campaignListReplySchema>;

/** The empty object enable-campaign and disable-campaign reply with (the reference's EmptyJson). */
export const emptyJsonReplySchema = z.strictObject({});
export type EmptyJsonReply = z.output<typeof emptyJsonReplySchema>;
