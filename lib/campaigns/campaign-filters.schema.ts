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
const dateConditions = z.strictObject({
  $after: z.optional(z.iso.datetime({ offset: true })),
  $before: z.optional(z.iso.datetime({ offset: true })),
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

const weekday = z.pipe(z.string().check(z.regex(/^[0-6]$/, 'must be a day 0 to 6')), z.transform(Number));

export const campaignFiltersSchema = z.strictObject({
  junction: z.optional(z.enum(['and', 'or', 'AND', 'OR'])),
  campaigns: z.optional(field(stringConditions)),
  campaigns_id: z.optional(field(stringConditions)),
  campaign_status: z.optional(field(stringConditions)),
  voucher_type: z.optional(field(stringConditions)),
  categories: z.optional(field(stringConditions)),
  category_ids: z.optional(field(stringConditions)),
  type: z.optional(
    field(
      z.strictObject({
        $in: z.optional(list(z.enum(['AUTO_UPDATE', 'BULK', 'STANDALONE', 'STATIC']))),
        $not_in: z.optional(list(z.enum(['AUTO_UPDATE', 'BULK', 'STANDALONE', 'STATIC']))),
      }),
    ),
  ),
  is_referral_code: z.optional(field(z.strictObject({ $is: z.optional(z.enum(['TRUE', 'FALSE'])), $is_not: z.optional(z.enum(['TRUE', 'FALSE'])) }))),
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
  created_date: z.optional(field(dateConditions)),
  updated_at: z.optional(field(dateConditions)),
  start_date: z.optional(field(dateConditions)),
  expiration_date: z.optional(field(dateConditions)),
  validity_day_of_week: z.optional(field(z.strictObject({ $is: list(weekday) }))),
});
export type CampaignFilters = z.output<typeof campaignFiltersSchema>;
