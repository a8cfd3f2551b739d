import type { LoyaltyCardTemplate } from '../campaigns/campaign.js';

/** A loyalty program's (or an earning rule's) points expiration rules, camelCase. */
export type ExpirationRules = NonNullable<LoyaltyCardTemplate['expirationRules']>;

const pad = (n: number): string => String(n).padStart(2, '0');
const isoDate = (year: number, month0: number, day: number): string => {
  // Date.UTC normalises month overflow (month0 = 13 is February of the next year).
  const d = new Date(Date.UTC(year, month0, day));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};
const daysIn = (year: number, month0: number): number => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
/** The last day of the month `month0` (may overflow into later years). */
const endOfMonth = (year: number, month0: number): string => isoDate(year, month0 + 1, 0);

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
  const year = now.getUTCFullYear();
  const month0 = now.getUTCMonth();
  if (rules.periodType === 'FIXED_DAY_OF_YEAR') {
    const m0 = (rules.fixedMonth ?? 12) - 1;
    const at = (y: number) => isoDate(y, m0, Math.min(rules.fixedDay ?? 31, daysIn(y, m0)));
    return at(year) > todayOf(now) ? at(year) : at(year + 1);
  }
  const target = month0 + (rules.periodValue ?? 0);
  const targetYear = year + Math.floor(target / 12);
  const targetMonth0 = ((target % 12) + 12) % 12;
  switch (rules.roundingType) {
    case 'END_OF_MONTH':
      return endOfMonth(targetYear, targetMonth0);
    case 'END_OF_QUARTER':
      return endOfMonth(targetYear, targetMonth0 - (targetMonth0 % 3) + 2);
    case 'END_OF_HALF_YEAR':
      return endOfMonth(targetYear, targetMonth0 < 6 ? 5 : 11);
    case 'END_OF_YEAR':
      return endOfMonth(targetYear, 11);
    case 'PARTICULAR_MONTH': {
      const wanted0 = Math.min(Math.max(rules.roundingValue ?? 12, 1), 12) - 1;
      return endOfMonth(wanted0 >= targetMonth0 ? targetYear : targetYear + 1, wanted0);
    }
    default:
      return isoDate(targetYear, targetMonth0, Math.min(now.getUTCDate(), daysIn(targetYear, targetMonth0)));
  }
}
