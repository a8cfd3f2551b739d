import * as z from 'zod';
import { nestQuery, queryBoolean, queryInt } from '../http/query-params.js';
import { campaignFiltersSchema } from './campaign-filters.js';
import { CODE_CHARACTERS, MAX_CODE_LENGTH } from '../vouchers/code-generator.js';
import { isStorableNumber, STORABLE_NUMBER_MESSAGE, storableNumbers } from '../db/storable.js';

/** Campaign types of the spec. */
export const CAMPAIGN_TYPES = ['DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'LOYALTY_PROGRAM', 'REFERRAL_PROGRAM', 'PROMOTION'] as const;
export const CAMPAIGN_STATUSES = ['DONE', 'IN_PROGRESS', 'FAILED', 'DRAFT', 'MODIFYING'] as const;

/** Vouchers a campaign may be created with; above MAX_SYNC_VOUCHERS_ON_CREATE a worker generates them. */
export const MAX_VOUCHERS_ON_CREATE = 100_000;
/** Vouchers generated within the create request itself; more go to the jobs queue. */
export const MAX_SYNC_VOUCHERS_ON_CREATE = 1;
/** Promotion tiers per campaign: each needs a pointer item in the creating transaction (≤ 100 items). */
export const MAX_PROMOTION_TIERS = 50;
/** Serialized size limit of a `metadata` object: keeps every item well under DynamoDB's 400 KB. */
export const MAX_METADATA_BYTES = 16 * 1024;

/** ISO 8601 date-time with `Z` or an offset; normalised to UTC milliseconds (`...000Z`), as Voucherify replies. */
export const dateTime = z.iso.datetime({ offset: true }).transform((s) => new Date(s).toISOString());
export const isoDuration = z.iso.duration();

export const metadataSchema = z
  .record(z.string(), z.unknown())
  .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= MAX_METADATA_BYTES, `must not exceed ${MAX_METADATA_BYTES} bytes`)
  .superRefine(storableNumbers);

const dayOfWeek = z.int().min(0).max(6);
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:mm');

export const validityTimeframeSchema = z.strictObject({ interval: isoDuration, duration: isoDuration });
export const validityDayOfWeekSchema = z.array(dayOfWeek).max(7);
export const validityHoursSchema = z.strictObject({
  daily: z
    .array(z.strictObject({ start_time: clockTime, expiration_time: clockTime, days_of_week: z.array(dayOfWeek).max(7) }))
    .max(50),
});

/** Amounts are in the smallest currency unit. */
const amount = z.number().nonnegative().max(Number.MAX_SAFE_INTEGER).refine(isStorableNumber, STORABLE_NUMBER_MESSAGE);
const formula = z.string().min(1).max(2000);
const unitProduct = z.strictObject({ id: z.string().min(1), source_id: z.string().optional(), name: z.string() });

const amountDiscount = z.strictObject({
  type: z.literal('AMOUNT'),
  amount_off: amount,
  amount_off_formula: formula.optional(),
  aggregated_amount_limit: z.int().nonnegative().optional(),
  effect: z
    .enum([
      'APPLY_TO_ORDER',
      'APPLY_TO_ITEMS',
      'APPLY_TO_ITEMS_PROPORTIONALLY',
      'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY',
      'APPLY_TO_ITEMS_BY_QUANTITY',
    ])
    .optional(),
  is_dynamic: z.boolean().optional(),
});

const percentDiscount = z.strictObject({
  type: z.literal('PERCENT'),
  percent_off: z.number().min(0).max(100).refine(isStorableNumber, STORABLE_NUMBER_MESSAGE),
  percent_off_formula: formula.optional(),
  amount_limit: amount.optional(),
  aggregated_amount_limit: z.int().nonnegative().optional(),
  effect: z.enum(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS']).optional(),
  is_dynamic: z.boolean().optional(),
});

const fixedDiscount = z.strictObject({
  type: z.literal('FIXED'),
  fixed_amount: amount,
  fixed_amount_formula: formula.optional(),
  effect: z.enum(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS']).optional(),
  is_dynamic: z.boolean().optional(),
});

const oneUnit = z.strictObject({
  unit_off: z.number().nonnegative().refine(isStorableNumber, STORABLE_NUMBER_MESSAGE).optional(),
  unit_off_formula: formula.optional(),
  effect: z.enum(['ADD_NEW_ITEMS', 'ADD_MISSING_ITEMS']),
  unit_type: z.string().min(1),
  product: unitProduct.optional(),
  sku: unitProduct.optional(),
});

/** UNIT covers Voucherify's single-unit and multiple-unit (`units`, effect ADD_MANY_ITEMS) forms. */
const unitDiscount = z
  .strictObject({
    type: z.literal('UNIT'),
    unit_off: z.number().nonnegative().refine(isStorableNumber, STORABLE_NUMBER_MESSAGE).optional(),
    unit_off_formula: formula.optional(),
    effect: z.enum(['ADD_MISSING_ITEMS', 'ADD_NEW_ITEMS', 'ADD_MANY_ITEMS', 'ADD_SAME_ITEMS']).optional(),
    unit_type: z.string().min(1).optional(),
    units: z.array(oneUnit).min(1).max(50).optional(),
    product: unitProduct.optional(),
    sku: unitProduct.optional(),
    is_dynamic: z.boolean().optional(),
  })
  .refine((d) => (d.units ? d.effect === 'ADD_MANY_ITEMS' && !d.unit_type : !!d.unit_type && d.effect !== 'ADD_MANY_ITEMS'), {
    message: 'needs either unit_type, or units with effect ADD_MANY_ITEMS',
  });

export const discountSchema = z.discriminatedUnion('type', [amountDiscount, percentDiscount, fixedDiscount, unitDiscount]);

export const giftSchema = z.strictObject({
  amount: z.int().nonnegative(),
  balance: z.int().nonnegative().optional(),
  effect: z.enum(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS']).optional(),
});

export const expirationRulesSchema = z
  .strictObject({
    period_type: z.enum(['FIXED_DAY_OF_YEAR', 'MONTH']),
    period_value: z.int().min(1).max(1200).optional(),
    rounding_type: z.enum(['END_OF_MONTH', 'END_OF_QUARTER', 'END_OF_HALF_YEAR', 'END_OF_YEAR', 'PARTICULAR_MONTH']).optional(),
    rounding_value: z.int().min(0).max(12).optional(),
    fixed_month: z.int().min(1).max(12).optional(),
    fixed_day: z.int().min(1).max(31).optional(),
  })
  .refine((r) => r.period_type !== 'MONTH' || r.period_value !== undefined, {
    message: 'period_value is required when period_type is MONTH',
  })
  .refine((r) => r.period_type !== 'FIXED_DAY_OF_YEAR' || (r.fixed_month !== undefined && r.fixed_day !== undefined), {
    message: 'fixed_month and fixed_day are required when period_type is FIXED_DAY_OF_YEAR',
  });

export const loyaltyCardTemplateSchema = z.strictObject({
  points: z.int().nonnegative(),
  expiration_rules: expirationRulesSchema.optional(),
});

const codePart = z.string().max(MAX_CODE_LENGTH).regex(CODE_CHARACTERS, 'must hold printable ASCII characters without spaces');

/** `code_config` as a client sends it; completed by resolveCodeConfig. */
export const codeConfigSchema = z.strictObject({
  length: z.int().min(1).max(MAX_CODE_LENGTH).optional(),
  charset: codePart.min(1).optional(),
  prefix: codePart.optional(),
  postfix: codePart.optional(),
  pattern: codePart.min(1).optional(),
  initial_count: z.int().nonnegative().optional(),
});

export const redemptionSchema = z.strictObject({ quantity: z.int().nonnegative().max(1_000_000_000).nullable().optional() });

const nameSchema = z.string().min(1).max(200);

const baseShape = {
  name: nameSchema,
  type: z.enum(['AUTO_UPDATE', 'STATIC', 'STANDALONE']).optional(),
  join_once: z.boolean().optional(),
  auto_join: z.boolean().optional(),
  use_voucher_metadata_schema: z.boolean().optional(),
  vouchers_count: z.int().min(0).max(MAX_VOUCHERS_ON_CREATE).optional(),
  start_date: dateTime.nullable().optional(),
  expiration_date: dateTime.nullable().optional(),
  validity_timeframe: validityTimeframeSchema.nullable().optional(),
  validity_day_of_week: validityDayOfWeekSchema.nullable().optional(),
  validity_hours: validityHoursSchema.nullable().optional(),
  activity_duration_after_publishing: isoDuration.nullable().optional(),
  category_id: z.string().min(1).max(100).nullable().optional(),
  category: nameSchema.nullable().optional(),
  metadata: metadataSchema.optional(),
  active: z.boolean().optional(),
};

const discountVoucherTemplate = z.strictObject({
  type: z.literal('DISCOUNT_VOUCHER').default('DISCOUNT_VOUCHER'),
  discount: discountSchema,
  code_config: codeConfigSchema.optional(),
  redemption: redemptionSchema.optional(),
});

const referralVoucherTemplate = discountVoucherTemplate.extend({ is_referral_code: z.boolean().optional() });

const giftVoucherTemplate = z.strictObject({
  type: z.literal('GIFT_VOUCHER').default('GIFT_VOUCHER'),
  gift: giftSchema,
  code_config: codeConfigSchema.optional(),
  redemption: redemptionSchema.optional(),
});

const loyaltyVoucherTemplate = z.strictObject({
  type: z.literal('LOYALTY_CARD').default('LOYALTY_CARD'),
  loyalty_card: loyaltyCardTemplateSchema,
  code_config: codeConfigSchema.optional(),
  redemption: redemptionSchema.optional(),
});

export const referralProgramSchema = z.strictObject({
  conversion_event_type: z.enum(['redemption', 'custom_event']).optional(),
  custom_event: z.strictObject({ id: z.string().optional(), name: z.string().optional() }).optional(),
  /** What the referred customer gets on conversion; the parent campaign is checked by resolveReferralProgram. */
  referee_reward: z
    .strictObject({
      related_object_parent: z.strictObject({
        id: z.string().min(1).max(1000).optional(),
        name: nameSchema.optional(),
        object: z.literal('CAMPAIGN').optional(),
      }),
      type: z.enum(['LOYALTY_CARD', 'GIFT_VOUCHER']),
      /** Points, or gift credits in cents. */
      amount: z.int().positive().max(1_000_000_000),
    })
    .optional(),
});

export const promotionTierSchema = z.strictObject({
  name: nameSchema,
  banner: z.string().max(1000).optional(),
  action: z.strictObject({ discount: discountSchema }).optional(),
  metadata: metadataSchema.optional(),
  active: z.boolean().optional(),
  hierarchy: z.int().min(0).max(1_000_000).optional(),
  start_date: dateTime.nullable().optional(),
  expiration_date: dateTime.nullable().optional(),
  validity_timeframe: validityTimeframeSchema.nullable().optional(),
  validity_day_of_week: validityDayOfWeekSchema.nullable().optional(),
  validity_hours: validityHoursSchema.nullable().optional(),
});

const campaignBodies = z.discriminatedUnion('campaign_type', [
  z.strictObject({ ...baseShape, campaign_type: z.literal('DISCOUNT_COUPONS'), voucher: discountVoucherTemplate }),
  z.strictObject({ ...baseShape, campaign_type: z.literal('GIFT_VOUCHERS'), voucher: giftVoucherTemplate }),
  z.strictObject({ ...baseShape, campaign_type: z.literal('LOYALTY_PROGRAM'), voucher: loyaltyVoucherTemplate }),
  z.strictObject({
    ...baseShape,
    campaign_type: z.literal('REFERRAL_PROGRAM'),
    voucher: referralVoucherTemplate,
    referral_program: referralProgramSchema.optional(),
  }),
  z.strictObject({
    ...baseShape,
    campaign_type: z.literal('PROMOTION'),
    vouchers_count: z.literal(0, { error: 'must be 0: a promotion has no vouchers' }).optional(),
    promotion: z.strictObject({ tiers: z.array(promotionTierSchema).max(MAX_PROMOTION_TIERS).nullable().optional() }).optional(),
  }),
]);

/** POST /v1/campaigns. `campaign_type` defaults to DISCOUNT_COUPONS (Voucherify's default). */
export const createCampaignBody = z.preprocess(
  (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && !('campaign_type' in v) ? { ...v, campaign_type: 'DISCOUNT_COUPONS' } : v),
  campaignBodies,
);
export type CreateCampaignBody = z.output<typeof campaignBodies>;

/** Path of the campaign endpoints: an id or a name. */
export const campaignParams = z.strictObject({ campaignId: z.string().min(1).max(1000) });

export type DiscountInput = z.output<typeof discountSchema>;
export type GiftInput = z.output<typeof giftSchema>;
export type LoyaltyCardTemplateInput = z.output<typeof loyaltyCardTemplateSchema>;
export type ValidityTimeframeInput = z.output<typeof validityTimeframeSchema>;
export type ValidityHoursInput = z.output<typeof validityHoursSchema>;
export type ReferralProgramInput = z.output<typeof referralProgramSchema>;
export type PromotionTierInput = z.output<typeof promotionTierSchema>;
export type CodeConfigBody = z.output<typeof codeConfigSchema>;

const EXPANDS = ['category', 'access_settings_assignments'] as const;
const idList = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string().min(1).max(100)).max(100));

/**
 * GET /v1/campaigns. Bracketed parameters (`filters[...]`, `access_settings[...]`) are read as
 * objects first (nestQuery); unknown parameters and values are refused.
 */
export const listCampaignsQuery = z.preprocess(
  (q) => nestQuery(q as Record<string, string>),
  z.strictObject({
    limit: queryInt(1, 100).default(10),
    page: queryInt(1, 100).default(1),
    campaign_type: z.enum(CAMPAIGN_TYPES).optional(),
    campaign_status: z.enum(CAMPAIGN_STATUSES).optional(),
    is_referral_code: queryBoolean.optional(),
    expand: z
      .string()
      .transform((s) => s.split(','))
      .pipe(z.array(z.enum(EXPANDS)))
      .optional(),
    order: z.enum(['created_at', '-created_at', 'updated_at', '-updated_at']).default('-created_at'),
    filters: campaignFiltersSchema.optional(),
    access_settings: z
      .strictObject({
        filter: z.strictObject({ areas_ids: idList.optional(), area_all_stores_ids: idList.optional(), area_stores_ids: idList.optional() }),
      })
      .optional(),
  }),
);
export type ListCampaignsQuery = z.output<typeof listCampaignsQuery>;
