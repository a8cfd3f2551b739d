import * as z from '../zod.js';
import { isoDuration } from '../date-time.schema.js';
import { isStorableNumber, STORABLE_NUMBER_MESSAGE } from '../db/storable.js';

/*
 * What a campaign's vouchers carry (discount, gift, loyalty card, code config, redemption, validity),
 * apart from the campaign body: voucher and reward modules use these without building the
 * campaign schemas.
 */

const dayOfWeek = z.int().check(z.minimum(0), z.maximum(6));
const clockTime = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:mm'));

export const validityTimeframeSchema = z.strictObject({ interval: isoDuration, duration: isoDuration });
export const validityDayOfWeekSchema = z.array(dayOfWeek).check(z.maxLength(7));
export const validityHoursSchema = z.strictObject({
  daily: z
    .array(z.strictObject({ start_time: clockTime, expiration_time: clockTime, days_of_week: z.array(dayOfWeek).check(z.maxLength(7)) }))
    .check(z.maxLength(50)),
});

/**
 * Amounts are in the smallest currency unit, so whole numbers: 10.5 was accepted and then applied
 * as 11 (issue 41 item 8), while balances and points refuse fractions.
 */
const amount = z.int().check(z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER));
const formula = z.string().check(z.minLength(1), z.maxLength(2000));
const unitProduct = z.strictObject({ id: z.string().check(z.minLength(1)), source_id: z.optional(z.string()), name: z.string() });

const amountDiscount = z.strictObject({
  type: z.literal('AMOUNT'),
  amount_off: amount,
  amount_off_formula: z.optional(formula),
  aggregated_amount_limit: z.optional(z.int().check(z.nonnegative())),
  effect: z.optional(
    z.enum(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS', 'APPLY_TO_ITEMS_PROPORTIONALLY', 'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY', 'APPLY_TO_ITEMS_BY_QUANTITY']),
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

export const giftSchema = z
  .strictObject({
    amount: z.int().check(z.nonnegative()),
    /** Credits already spent on each new voucher; its balance then starts at amount − subtracted_amount. */
    subtracted_amount: z.optional(z.int().check(z.nonnegative())),
    balance: z.optional(z.int().check(z.nonnegative())),
    effect: z.optional(z.enum(['APPLY_TO_ORDER', 'APPLY_TO_ITEMS'])),
  })
  .check(
    z.refine((g) => g.subtracted_amount === undefined || g.subtracted_amount <= g.amount, {
      message: 'cannot exceed amount',
      path: ['subtracted_amount'],
    }),
  );

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

export type DiscountInput = z.output<typeof discountSchema>;
export type GiftInput = z.output<typeof giftSchema>;
export type LoyaltyCardTemplateInput = z.output<typeof loyaltyCardTemplateSchema>;
export type ValidityTimeframeInput = z.output<typeof validityTimeframeSchema>;
export type ValidityHoursInput = z.output<typeof validityHoursSchema>;
