import * as z from '../zod.js';
import { noOperand as flag, queryList as list, stringConditions as stringConditionsOf } from '../filter-conditions.schema.js';

/**
 * The `filters` query parameter of GET /v1/campaigns, after Voucherify's list filters:
 * `filters[<field>][conditions][<operator>]=<value>`, fields combined by `filters[junction]`
 * (`and`, the default, or `or`), the conditions of one field always combined with `and`.
 * Array operands are written `[$in][0]=a&[$in][1]=b` (or `[$in][]=`); operators without an
 * operand (`$has_value`, `$active`, …) take an empty value. See docs/decisions.md.
 */

const stringConditions = stringConditionsOf(200);
export type StringConditions = z.output<typeof stringConditions>;

const days = z.pipe(z.string().check(z.regex(/^\d{1,5}$/, 'must be a number of days')), z.transform(Number));
const instant = z.optional(z.iso.datetime({ offset: true }));
const dateConditions = z.strictObject({
  $after: instant,
  $before: instant,
  $has_value: z.optional(flag),
  $is_unknown: z.optional(flag),
  $more_than: z.optional(days),
  $less_than: z.optional(days),
});
export type DateConditions = z.output<typeof dateConditions>;

const field = <T extends z.ZodMiniType>(conditions: T) =>
  z.strictObject({
    conditions: conditions.check(z.refine((c) => Object.keys(c as object).length > 0, 'needs at least one operator')),
  });

// One instance per kind of field, shared by the fields of that kind: each copy would cost its construction at load.
const stringField = z.optional(field(stringConditions));
const dateField = z.optional(field(dateConditions));
const typeList = list(z.enum(['AUTO_UPDATE', 'BULK', 'STANDALONE', 'STATIC']));
const trueOrFalse = z.optional(z.enum(['TRUE', 'FALSE']));

const weekday = z.pipe(z.string().check(z.regex(/^[0-6]$/, 'must be a day 0 to 6')), z.transform(Number));

export const campaignFiltersSchema = z.strictObject({
  junction: z.optional(z.enum(['and', 'or', 'AND', 'OR'])),
  campaigns: stringField,
  campaigns_id: stringField,
  campaign_status: stringField,
  voucher_type: stringField,
  categories: stringField,
  category_ids: stringField,
  type: z.optional(
    field(
      z.strictObject({
        $in: z.optional(typeList),
        $not_in: z.optional(typeList),
      }),
    ),
  ),
  is_referral_code: z.optional(field(z.strictObject({ $is: trueOrFalse, $is_not: trueOrFalse }))),
  active: z.optional(field(z.strictObject({ $enabled: z.optional(flag), $disabled: z.optional(flag), $expired: z.optional(flag), $active: z.optional(flag) }))),
  status: z.optional(
    field(
      z.strictObject({
        $active: z.optional(flag),
        $failed: z.optional(flag),
        $in_progress: z.optional(flag),
        $expired: z.optional(flag),
        before_start: z.optional(flag),
      }),
    ),
  ),
  created_date: dateField,
  updated_at: dateField,
  start_date: dateField,
  expiration_date: dateField,
  validity_day_of_week: z.optional(field(z.strictObject({ $is: list(weekday) }))),
});
export type CampaignFilters = z.output<typeof campaignFiltersSchema>;
