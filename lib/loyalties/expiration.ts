import type { LoyaltyCardTemplate } from '../campaigns/campaign.js';
import { addDuration, daysIn, isoDate, type QualificationPeriod, rounded } from './tier-period.js';

/** A loyalty program's (or an earning rule's) points expiration rules, camelCase. */
export type ExpirationRules = NonNullable<LoyaltyCardTemplate['expirationRules']>;

/** Today's calendar date (UTC) as `YYYY-MM-DD`: buckets expiring before it are gone. */
export const todayOf = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * The last day on which points added at `now` can be spent, under Voucherify's expiration rules:
 * - `MONTH` + `period_value` N: N months after the day the points were added (the day clamped to
 *   the target month's length), then rounded up by `rounding_type`: END_OF_MONTH, END_OF_QUARTER,
 *   END_OF_HALF_YEAR, END_OF_YEAR move to the last day of that month / quarter / half / year;
 *   PARTICULAR_MONTH with `rounding_value` M moves to the last day of the first month M at or after it.
 * - `FIXED_DAY_OF_YEAR` (`fixed_month`, `fixed_day`): the next such day after today (this year's
 *   if it is still ahead, else next year's), the day clamped to the month's length.
 * Null rules mean the points never expire (null). All dates are UTC calendar dates.
 */
export function expiryOf(rules: ExpirationRules | null | undefined, now: Date): string | null {
  if (!rules) return null;
  const today = todayOf(now);
  if (rules.periodType === 'FIXED_DAY_OF_YEAR') {
    const m0 = (rules.fixedMonth ?? 12) - 1;
    const at = (y: number) => isoDate(y, m0, Math.min(rules.fixedDay ?? 31, daysIn(y, m0)));
    const year = now.getUTCFullYear();
    return at(year) > today ? at(year) : at(year + 1);
  }
  // The same month arithmetic and calendar rounding as the tiers' expiration (lib/loyalties/tier-period.ts).
  const t = rules.roundingType;
  return rounded(
    addDuration(today, `P${rules.periodValue ?? 0}M`),
    t === 'PARTICULAR_MONTH'
      ? { type: 'CUSTOM', value: Math.min(Math.max(rules.roundingValue ?? 12, 1), 12) - 1 }
      : t
        ? { type: t.slice(7) as QualificationPeriod }
        : undefined,
  );
}
