import * as z from '../zod.js';
import { dateTime, isoDuration } from '../date-time.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { accessSettingsSchema, noValidationRules, refusedField } from '../not-built.schema.js';
import { MAX_PROMOTION_TIERS, MAX_VOUCHERS_ON_CREATE } from './campaign.js';
import { codeConfigSchema, redemptionSchema } from '../vouchers/code-config.schema.js';
import {
  discountSchema,
  giftSchema,
  loyaltyCardTemplateSchema,
  validityDayOfWeekSchema,
  validityHoursSchema,
  validityTimeframeSchema,
} from './voucher-template.schema.js';

const nameSchema = z.string().check(z.minLength(1), z.maxLength(200));

/** At most 2,000 characters: free text kept on the campaign item, far below DynamoDB's item limit. */
export const MAX_CAMPAIGN_DESCRIPTION_LENGTH = 2000;

/** The fields every campaign create shares (a template's campaign-setup takes them too). */
export const campaignBaseShape = {
  name: nameSchema,
  description: z.optional(z.nullable(z.string().check(z.maxLength(MAX_CAMPAIGN_DESCRIPTION_LENGTH)))),
  type: z.optional(z.enum(['AUTO_UPDATE', 'STATIC', 'STANDALONE'])),
  join_once: z.optional(z.boolean()),
  auto_join: z.optional(z.boolean()),
  use_voucher_metadata_schema: z.optional(z.boolean()),
  vouchers_count: z.optional(z.int().check(z.minimum(0), z.maximum(MAX_VOUCHERS_ON_CREATE))),
  start_date: z.optional(z.nullable(dateTime)),
  expiration_date: z.optional(z.nullable(dateTime)),
  validity_timeframe: z.optional(z.nullable(validityTimeframeSchema)),
  validity_day_of_week: z.optional(z.nullable(validityDayOfWeekSchema)),
  validity_hours: z.optional(z.nullable(validityHoursSchema)),
  activity_duration_after_publishing: z.optional(z.nullable(isoDuration)),
  category_id: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(100)))),
  category: z.optional(z.nullable(nameSchema)),
  metadata: z.optional(metadataSchema),
  active: z.optional(z.boolean()),
  // Accepted when they ask for nothing (lib/not-built.schema.ts); not stored.
  access_settings: z.optional(accessSettingsSchema),
  validation_rules: z.optional(noValidationRules),
};

const discountVoucherTemplate = z.strictObject({
  type: z._default(z.literal('DISCOUNT_VOUCHER'), 'DISCOUNT_VOUCHER'),
  discount: discountSchema,
  code_config: z.optional(codeConfigSchema),
  redemption: z.optional(redemptionSchema),
});

const referralVoucherTemplate = z.extend(discountVoucherTemplate, { is_referral_code: z.optional(z.boolean()) });

const giftVoucherTemplate = z.strictObject({
  type: z._default(z.literal('GIFT_VOUCHER'), 'GIFT_VOUCHER'),
  gift: giftSchema,
  code_config: z.optional(codeConfigSchema),
  redemption: z.optional(redemptionSchema),
});

const loyaltyVoucherTemplate = z.strictObject({
  type: z._default(z.literal('LOYALTY_CARD'), 'LOYALTY_CARD'),
  loyalty_card: loyaltyCardTemplateSchema,
  code_config: z.optional(codeConfigSchema),
  redemption: z.optional(redemptionSchema),
});

export const referralProgramSchema = z.strictObject({
  conversion_event_type: z.optional(z.enum(['redemption', 'custom_event'])),
  custom_event: z.optional(z.strictObject({ id: z.optional(z.string()), name: z.optional(z.string()) })),
  /** What the referred customer gets on conversion; the parent campaign is checked by resolveReferralProgram. */
  referee_reward: z.optional(
    z.strictObject({
      related_object_parent: z.strictObject({
        id: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
        name: z.optional(nameSchema),
        object: z.optional(z.literal('CAMPAIGN')),
      }),
      type: z.enum(['LOYALTY_CARD', 'GIFT_VOUCHER']),
      /** Points, or gift credits in cents. */
      amount: z.int().check(z.positive(), z.maximum(1_000_000_000)),
    }),
  ),
});

export const promotionTierSchema = z.strictObject({
  name: nameSchema,
  banner: z.optional(z.string().check(z.maxLength(1000))),
  action: z.optional(z.strictObject({ discount: discountSchema })),
  metadata: z.optional(metadataSchema),
  active: z.optional(z.boolean()),
  hierarchy: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
  start_date: z.optional(z.nullable(dateTime)),
  expiration_date: z.optional(z.nullable(dateTime)),
  validity_timeframe: z.optional(z.nullable(validityTimeframeSchema)),
  validity_day_of_week: z.optional(z.nullable(validityDayOfWeekSchema)),
  validity_hours: z.optional(z.nullable(validityHoursSchema)),
  validation_rules: z.optional(noValidationRules),
  // Tiers keep no category, and rule assignments are made through their own routes: dropped, either would be believed kept.
  category: refusedField('promotion tiers keep no category yet'),
  category_id: refusedField('promotion tiers keep no category yet'),
  validation_rule_assignments: refusedField('assign validation rules through POST /v1/validation-rules/{validationRuleId}/assignments'),
});

/** A loyalty program's create body: POST /v1/campaigns with LOYALTY_PROGRAM, and POST /v1/loyalties. */
export const loyaltyProgramShape = { ...campaignBaseShape, campaign_type: z.literal('LOYALTY_PROGRAM'), voucher: loyaltyVoucherTemplate };

const campaignBodies = z.discriminatedUnion('campaign_type', [
  z.strictObject({ ...campaignBaseShape, campaign_type: z.literal('DISCOUNT_COUPONS'), voucher: discountVoucherTemplate }),
  z.strictObject({ ...campaignBaseShape, campaign_type: z.literal('GIFT_VOUCHERS'), voucher: giftVoucherTemplate }),
  z.strictObject(loyaltyProgramShape),
  z.strictObject({
    ...campaignBaseShape,
    campaign_type: z.literal('REFERRAL_PROGRAM'),
    voucher: referralVoucherTemplate,
    referral_program: z.optional(referralProgramSchema),
  }),
  z.strictObject({
    ...campaignBaseShape,
    campaign_type: z.literal('PROMOTION'),
    vouchers_count: z.optional(z.literal(0, { error: 'must be 0: a promotion has no vouchers' })),
    promotion: z.optional(z.strictObject({ tiers: z.optional(z.nullable(z.array(promotionTierSchema).check(z.maxLength(MAX_PROMOTION_TIERS)))) })),
  }),
]);

/** The campaign type a voucher template's type makes (each type has one non-referral campaign type). */
const CAMPAIGN_TYPE_OF_VOUCHER = { DISCOUNT_VOUCHER: 'DISCOUNT_COUPONS', GIFT_VOUCHER: 'GIFT_VOUCHERS', LOYALTY_CARD: 'LOYALTY_PROGRAM' } as const;

/**
 * The campaign type of a body that names none: the one its voucher's `type` makes, else the one its
 * voucher's benefit makes (`gift`, `loyalty_card`), else DISCOUNT_COUPONS (Voucherify's default).
 * A client that sends a loyalty card template says what the campaign is (docs/decisions.md
 * "Campaign type from the voucher's type").
 */
export function impliedCampaignType(body: Record<string, unknown>): string {
  const voucher = body.voucher;
  if (voucher !== null && typeof voucher === 'object' && !Array.isArray(voucher)) {
    const v = voucher as Record<string, unknown>;
    if (typeof v.type === 'string' && Object.hasOwn(CAMPAIGN_TYPE_OF_VOUCHER, v.type))
      return CAMPAIGN_TYPE_OF_VOUCHER[v.type as keyof typeof CAMPAIGN_TYPE_OF_VOUCHER];
    if (v.type === undefined || v.type === null) {
      if (v.gift !== undefined && v.gift !== null) return 'GIFT_VOUCHERS';
      if (v.loyalty_card !== undefined && v.loyalty_card !== null) return 'LOYALTY_PROGRAM';
    }
  }
  return 'DISCOUNT_COUPONS';
}

/** POST /v1/campaigns. Without `campaign_type`, the voucher's type says it (impliedCampaignType). */
export const createCampaignBody = z.preprocess(
  (v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && ((v as Record<string, unknown>).campaign_type ?? null) === null
      ? { ...v, campaign_type: impliedCampaignType(v as Record<string, unknown>) }
      : v,
  campaignBodies,
);
export type CreateCampaignBody = z.output<typeof campaignBodies>;

export type ReferralProgramInput = z.output<typeof referralProgramSchema>;
export type PromotionTierInput = z.output<typeof promotionTierSchema>;
