import type { CampaignFilters, DateConditions, StringConditions } from './campaign-filters.schema.js';
import type { CampaignListEntry } from './campaign.repo.js';

/** Evaluates the `filters` of GET /v1/campaigns (parsed by campaign-filters.schema.ts) over list entries. */

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
