import * as z from 'zod';
import type { CampaignListEntry } from './campaign.repo.js';

/**
 * The `filters` query parameter of GET /v1/campaigns, after Voucherify's list filters:
 * `filters[<field>][conditions][<operator>]=<value>`, fields combined by `filters[junction]`
 * (`and`, the default, or `or`), the conditions of one field always combined with `and`.
 * Array operands are written `[$in][0]=a&[$in][1]=b` (or `[$in][]=`); operators without an
 * operand (`$has_value`, `$active`, …) take an empty value. See docs/decisions.md.
 */

/** One value or a list of them: `$in=a` is read as `$in[0]=a`. */
const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(item).min(1).max(100));
const flag = z.literal('', { error: 'takes no value' });
const text = z.string().min(1).max(200);

const stringConditions = z.strictObject({
  $in: list(text).optional(),
  $not_in: list(text).optional(),
  $is: text.optional(),
  $is_not: text.optional(),
  $has_value: flag.optional(),
  $is_unknown: flag.optional(),
  $starts_with: text.optional(),
  $ends_with: text.optional(),
  $contains: text.optional(),
  $not_contain: text.optional(),
});
type StringConditions = z.output<typeof stringConditions>;

const days = z.string().regex(/^\d{1,5}$/, 'must be a number of days').transform(Number);
const dateConditions = z.strictObject({
  $after: z.iso.datetime({ offset: true }).optional(),
  $before: z.iso.datetime({ offset: true }).optional(),
  $has_value: flag.optional(),
  $is_unknown: flag.optional(),
  $more_than: days.optional(),
  $less_than: days.optional(),
});
type DateConditions = z.output<typeof dateConditions>;

const field = <T extends z.ZodType>(conditions: T) =>
  z.strictObject({
    conditions: conditions.refine((c) => Object.keys(c as object).length > 0, 'needs at least one operator'),
  });

const weekday = z.string().regex(/^[0-6]$/, 'must be a day 0 to 6').transform(Number);

export const campaignFiltersSchema = z.strictObject({
  junction: z.enum(['and', 'or', 'AND', 'OR']).optional(),
  campaigns: field(stringConditions).optional(),
  campaigns_id: field(stringConditions).optional(),
  campaign_status: field(stringConditions).optional(),
  voucher_type: field(stringConditions).optional(),
  categories: field(stringConditions).optional(),
  category_ids: field(stringConditions).optional(),
  type: field(z.strictObject({ $in: list(z.enum(['AUTO_UPDATE', 'BULK', 'STANDALONE', 'STATIC'])).optional(), $not_in: list(z.enum(['AUTO_UPDATE', 'BULK', 'STANDALONE', 'STATIC'])).optional() })).optional(),
  is_referral_code: field(z.strictObject({ $is: z.enum(['TRUE', 'FALSE']).optional(), $is_not: z.enum(['TRUE', 'FALSE']).optional() })).optional(),
  active: field(
    z.strictObject({ $enabled: flag.optional(), $disabled: flag.optional(), $expired: flag.optional(), $active: flag.optional() }),
  ).optional(),
  status: field(
    z.strictObject({
      $active: flag.optional(),
      $failed: flag.optional(),
      $in_progress: flag.optional(),
      $expired: flag.optional(),
      before_start: flag.optional(),
    }),
  ).optional(),
  created_date: field(dateConditions).optional(),
  updated_at: field(dateConditions).optional(),
  start_date: field(dateConditions).optional(),
  expiration_date: field(dateConditions).optional(),
  validity_day_of_week: field(z.strictObject({ $is: list(weekday) })).optional(),
});
export type CampaignFilters = z.output<typeof campaignFiltersSchema>;

type Predicate = (e: CampaignListEntry) => boolean;

function matchString(value: string | null, c: StringConditions): boolean {
  const checks: boolean[] = [];
  if (c.$in) checks.push(value !== null && c.$in.includes(value));
  if (c.$not_in) checks.push(value === null || !c.$not_in.includes(value));
  if (c.$is !== undefined) checks.push(value === c.$is);
  if (c.$is_not !== undefined) checks.push(value !== c.$is_not);
  if (c.$has_value !== undefined) checks.push(value !== null);
  if (c.$is_unknown !== undefined) checks.push(value === null);
  if (c.$starts_with !== undefined) checks.push(value?.startsWith(c.$starts_with) ?? false);
  if (c.$ends_with !== undefined) checks.push(value?.endsWith(c.$ends_with) ?? false);
  if (c.$contains !== undefined) checks.push(value?.includes(c.$contains) ?? false);
  if (c.$not_contain !== undefined) checks.push(!(value?.includes(c.$not_contain) ?? false));
  return checks.every(Boolean);
}

const DAY_MS = 86_400_000;

function matchDate(value: string | null, c: DateConditions, now: Date): boolean {
  const t = value === null ? null : Date.parse(value);
  const checks: boolean[] = [];
  if (c.$after !== undefined) checks.push(t !== null && t > Date.parse(c.$after));
  if (c.$before !== undefined) checks.push(t !== null && t < Date.parse(c.$before));
  if (c.$has_value !== undefined) checks.push(t !== null);
  if (c.$is_unknown !== undefined) checks.push(t === null);
  if (c.$more_than !== undefined) checks.push(t !== null && t < now.getTime() - c.$more_than * DAY_MS);
  if (c.$less_than !== undefined) checks.push(t !== null && t >= now.getTime() - c.$less_than * DAY_MS);
  return checks.every(Boolean);
}

const expired = (e: CampaignListEntry, now: Date): boolean => e.expirationDate !== null && Date.parse(e.expirationDate) < now.getTime();
const started = (e: CampaignListEntry, now: Date): boolean => e.startDate === null || Date.parse(e.startDate) <= now.getTime();

/**
 * Turns parsed filters into one predicate over list entries. `now` decides the time-relative
 * operators ($expired, $active, $more_than, …).
 */
export function campaignFilterPredicate(filters: CampaignFilters, now: Date): Predicate {
  const parts: Predicate[] = [];
  const str = (c: { conditions: StringConditions } | undefined, get: (e: CampaignListEntry) => string | null) => {
    if (c) parts.push((e) => matchString(get(e), c.conditions));
  };
  const date = (c: { conditions: DateConditions } | undefined, get: (e: CampaignListEntry) => string | null) => {
    if (c) parts.push((e) => matchDate(get(e), c.conditions, now));
  };
  str(filters.campaigns, (e) => e.name);
  str(filters.campaigns_id, (e) => e.id);
  str(filters.campaign_status, (e) => e.creationStatus);
  str(filters.voucher_type, (e) => e.voucherType);
  str(filters.categories, (e) => e.categoryName);
  str(filters.category_ids, (e) => e.categoryId);
  date(filters.created_date, (e) => e.createdAt);
  date(filters.updated_at, (e) => e.updatedAt);
  date(filters.start_date, (e) => e.startDate);
  date(filters.expiration_date, (e) => e.expirationDate);
  if (filters.type) {
    const expand = (types: string[]) => types.flatMap((t) => (t === 'BULK' ? ['AUTO_UPDATE', 'STATIC'] : [t]));
    const { $in, $not_in } = filters.type.conditions;
    parts.push((e) => ($in ? expand($in).includes(e.type) : true) && ($not_in ? !expand($not_in).includes(e.type) : true));
  }
  if (filters.is_referral_code) {
    const { $is, $is_not } = filters.is_referral_code.conditions;
    parts.push((e) => ($is ? e.isReferralCode === ($is === 'TRUE') : true) && ($is_not ? e.isReferralCode !== ($is_not === 'TRUE') : true));
  }
  if (filters.active) {
    const c = filters.active.conditions;
    parts.push(
      (e) =>
        (c.$enabled === undefined || e.active) &&
        (c.$disabled === undefined || !e.active) &&
        (c.$expired === undefined || expired(e, now)) &&
        (c.$active === undefined || (e.active && started(e, now) && !expired(e, now))),
    );
  }
  if (filters.status) {
    const c = filters.status.conditions;
    parts.push(
      (e) =>
        (c.$active === undefined || e.creationStatus === 'DONE') &&
        (c.$failed === undefined || e.creationStatus === 'FAILED') &&
        (c.$in_progress === undefined || e.creationStatus === 'IN_PROGRESS' || e.creationStatus === 'MODIFYING') &&
        (c.$expired === undefined || (e.creationStatus === 'DONE' && expired(e, now))) &&
        (c.before_start === undefined || (e.creationStatus === 'DONE' && !started(e, now))),
    );
  }
  if (filters.validity_day_of_week) {
    const wanted = filters.validity_day_of_week.conditions.$is;
    parts.push((e) => e.validityDayOfWeek === null || wanted.every((d) => e.validityDayOfWeek?.includes(d)));
  }
  if (parts.length === 0) return () => true;
  const any = filters.junction?.toLowerCase() === 'or';
  return any ? (e) => parts.some((p) => p(e)) : (e) => parts.every((p) => p(e));
}
