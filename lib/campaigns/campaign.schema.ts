import * as z from '../zod.js';
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
export const dateTime = z.pipe(z.iso.datetime({ offset: true }), z.transform((s: string) => new Date(s).toISOString()));
export const isoDuration = z.iso.duration();

export const metadataSchema = z
  .record(z.string(), z.unknown())
  .check(
    z.refine((m) => Buffer.byteLength(JSON.stringify(m)) <= MAX_METADATA_BYTES, `must not exceed ${MAX_METADATA_BYTES} bytes`),
    z.superRefine(storableNumbers),
  );

const dayOfWeek = z.int().check(z.minimum(0), z.maximum(6));
const clockTime = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:mm'));

export const validityTimeframeSchema = z.strictObject({ interval: isoDuration, duration: isoDuration });
export const validityDayOfWeekSchema = z.array(dayOfWeek).check(z.maxLength(7));
export const validityHoursSchema = z.strictObject({
  daily: z
    .array(z.strictObject({ start_time: clockTime, expiration_time: clockTime, days_of_week: z.array(dayOfWeek).check(z.maxLength(7)) }))
    .check(z.maxLength(50)),
});

/** Amounts are in the smallest currency unit. */
const amount = z
  .number()
  .check(z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER), z.refine(isStorableNumber, STORABLE_NUMBER_MESSAGE));
const formula = z.string().check(z.minLength(1), z.maxLength(2000));
const unitProduct = z.strictObject({ id: z.string().check(z.minLength(1)), source_id: z.optional(z.string()), name: z.string() });

const amountDiscount = z.strictObject({
  type: z.literal('AMOUNT'),
  amount_off: amount,
  amount_off_formula: z.optional(formula),
  aggregated_amount_limit: z.optional(z.int().check(z.nonnegative())),
  effect: z.optional(
    z.enum([
      'APPLY_TO_ORDER',
      'APPLY_TO_ITEMS',
      'APPLY_TO_ITEMS_PROPORTIONALLY',
      'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY',
      'APPLY_TO_ITEMS_BY_QUANTITY',
    ]),
  ),
  is_dynamic: z.optional(z.boolean()),
});

const percentDiscount = z.strictObject({
  type: z.literal('PERCENT'),
  percent_off: z.number().check(z.minimum(0), z.maximum(100), z.refine(isStorableNumber, STORABLE_NUMBER_MESSAGE)),
  percent_off_formula: z.optional(formula),
  amount_limit: z.optional(amount),
  aggregated_amount_limit: z.optional(z.int().check(z.nonnegative())),
  effect: z.optional(z.enum(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS'])),
  is_dynamic: z.optional(z.boolean()),
});

const fixedDiscount = z.strictObject({
  type: z.literal('FIXED'),
  fixed_amount: amount,
  fixed_amount_formula: z.optional(formula),
  effect: z.optional(z.enum(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS'])),
  is_dynamic: z.optional(z.boolean()),
});

const oneUnit = z.strictObject({
  unit_off: z.optional(z.number().check(z.nonnegative(), z.refine(isStorableNumber, STORABLE_NUMBER_MESSAGE))),
  unit_off_formula: z.optional(formula),
  effect: z.enum(['ADD_NEW_ITEMS', 'ADD_MISSING_ITEMS']),
  unit_type: z.string().check(z.minLength(1)),
  product: z.optional(unitProduct),
  sku: z.optional(unitProduct),
});

/** UNIT covers Voucherify's single-unit and multiple-unit (`units`, effect ADD_MANY_ITEMS) forms. */
const unitDiscount = z
  .strictObject({
    type: z.literal('UNIT'),
    unit_off: z.optional(z.number().check(z.nonnegative(), z.refine(isStorableNumber, STORABLE_NUMBER_MESSAGE))),
    unit_off_formula: z.optional(formula),
    effect: z.optional(z.enum(['ADD_MISSING_ITEMS', 'ADD_NEW_ITEMS', 'ADD_MANY_ITEMS', 'ADD_SAME_ITEMS'])),
    unit_type: z.optional(z.string().check(z.minLength(1))),
    units: z.optional(z.array(oneUnit).check(z.minLength(1), z.maxLength(50))),
    product: z.optional(unitProduct),
    sku: z.optional(unitProduct),
    is_dynamic: z.optional(z.boolean()),
  })
  .check(
    z.refine((d) => (d.units ? d.effect === 'ADD_MANY_ITEMS' && !d.unit_type : !!d.unit_type && d.effect !== 'ADD_MANY_ITEMS'), {
      message: 'needs either unit_type, or units with effect ADD_MANY_ITEMS',
    }),
  );

export const discountSchema = z.discriminatedUnion('type', [amountDiscount, percentDiscount, fixedDiscount, unitDiscount]);

export const giftSchema = z.strictObject({
  amount: z.int().check(z.nonnegative()),
  balance: z.optional(z.int().check(z.nonnegative())),
  effect: z.optional(z.enum(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS'])),
});

export const expirationRulesSchema = z
  .strictObject({
    period_type: z.enum(['FIXED_DAY_OF_YEAR', 'MONTH']),
    period_value: z.optional(z.int().check(z.minimum(1), z.maximum(1200))),
    rounding_type: z.optional(z.enum(['END_OF_MONTH', 'END_OF_QUARTER', 'END_OF_HALF_YEAR', 'END_OF_YEAR', 'PARTICULAR_MONTH'])),
    rounding_value: z.optional(z.int().check(z.minimum(0), z.maximum(12))),
    fixed_month: z.optional(z.int().check(z.minimum(1), z.maximum(12))),
    fixed_day: z.optional(z.int().check(z.minimum(1), z.maximum(31))),
  })
  .check(
    z.refine((r) => r.period_type !== 'MONTH' || r.period_value !== undefined, {
      message: 'period_value is required when period_type is MONTH',
    }),
    z.refine((r) => r.period_type !== 'FIXED_DAY_OF_YEAR' || (r.fixed_month !== undefined && r.fixed_day !== undefined), {
      message: 'fixed_month and fixed_day are required when period_type is FIXED_DAY_OF_YEAR',
    }),
  );

export const loyaltyCardTemplateSchema = z.strictObject({
  points: z.int().check(z.nonnegative()),
  expiration_rules: z.optional(expirationRulesSchema),
});

const codePart = z.string().check(z.maxLength(MAX_CODE_LENGTH), z.regex(CODE_CHARACTERS, 'must hold printable ASCII characters without spaces'));

/** `code_config` as a client sends it; completed by resolveCodeConfig. */
export const codeConfigSchema = z.strictObject({
  length: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_CODE_LENGTH))),
  charset: z.optional(codePart.check(z.minLength(1))),
  prefix: z.optional(codePart),
  postfix: z.optional(codePart),
  pattern: z.optional(codePart.check(z.minLength(1))),
  initial_count: z.optional(z.int().check(z.nonnegative())),
});

export const redemptionSchema = z.strictObject({
  quantity: z.optional(z.nullable(z.int().check(z.nonnegative(), z.maximum(1_000_000_000)))),
});

const nameSchema = z.string().check(z.minLength(1), z.maxLength(200));

const baseShape = {
  name: nameSchema,
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
});

const campaignBodies = z.discriminatedUnion('campaign_type', [
  z.strictObject({ ...baseShape, campaign_type: z.literal('DISCOUNT_COUPONS'), voucher: discountVoucherTemplate }),
  z.strictObject({ ...baseShape, campaign_type: z.literal('GIFT_VOUCHERS'), voucher: giftVoucherTemplate }),
  z.strictObject({ ...baseShape, campaign_type: z.literal('LOYALTY_PROGRAM'), voucher: loyaltyVoucherTemplate }),
  z.strictObject({
    ...baseShape,
    campaign_type: z.literal('REFERRAL_PROGRAM'),
    voucher: referralVoucherTemplate,
    referral_program: z.optional(referralProgramSchema),
  }),
  z.strictObject({
    ...baseShape,
    campaign_type: z.literal('PROMOTION'),
    vouchers_count: z.optional(z.literal(0, { error: 'must be 0: a promotion has no vouchers' })),
    promotion: z.optional(
      z.strictObject({ tiers: z.optional(z.nullable(z.array(promotionTierSchema).check(z.maxLength(MAX_PROMOTION_TIERS)))) }),
    ),
  }),
]);

/** POST /v1/campaigns. `campaign_type` defaults to DISCOUNT_COUPONS (Voucherify's default). */
export const createCampaignBody = z.preprocess(
  (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && !('campaign_type' in v) ? { ...v, campaign_type: 'DISCOUNT_COUPONS' } : v),
  campaignBodies,
);
export type CreateCampaignBody = z.output<typeof campaignBodies>;

/** Path of the campaign endpoints: an id or a name. */
export const campaignParams = z.strictObject({ campaignId: z.string().check(z.minLength(1), z.maxLength(1000)) });

export type DiscountInput = z.output<typeof discountSchema>;
export type GiftInput = z.output<typeof giftSchema>;
export type LoyaltyCardTemplateInput = z.output<typeof loyaltyCardTemplateSchema>;
export type ValidityTimeframeInput = z.output<typeof validityTimeframeSchema>;
export type ValidityHoursInput = z.output<typeof validityHoursSchema>;
export type ReferralProgramInput = z.output<typeof referralProgramSchema>;
export type PromotionTierInput = z.output<typeof promotionTierSchema>;
export type CodeConfigBody = z.output<typeof codeConfigSchema>;

const EXPANDS = ['category', 'access_settings_assignments'] as const;
const idList = z.preprocess(
  (v) => (typeof v === 'string' ? [v] : v),
  z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(100)),
);

/**
 * GET /v1/campaigns. Bracketed parameters (`filters[...]`, `access_settings[...]`) are read as
 * objects first (nestQuery); unknown parameters and values are refused.
 */
export const listCampaignsQuery = z.preprocess(
  (q) => nestQuery(q as Record<string, string>),
  z.strictObject({
    limit: z._default(queryInt(1, 100), 10),
    page: z._default(queryInt(1, 100), 1),
    campaign_type: z.optional(z.enum(CAMPAIGN_TYPES)),
    campaign_status: z.optional(z.enum(CAMPAIGN_STATUSES)),
    is_referral_code: z.optional(queryBoolean),
    expand: z.optional(z.pipe(z.pipe(z.string(), z.transform((s: string) => s.split(','))), z.array(z.enum(EXPANDS)))),
    order: z._default(z.enum(['created_at', '-created_at', 'updated_at', '-updated_at']), '-created_at'),
    filters: z.optional(campaignFiltersSchema),
    access_settings: z.optional(
      z.strictObject({
        filter: z.strictObject({ areas_ids: z.optional(idList), area_all_stores_ids: z.optional(idList), area_stores_ids: z.optional(idList) }),
      }),
    ),
  }),
);
export type ListCampaignsQuery = z.output<typeof listCampaignsQuery>;
