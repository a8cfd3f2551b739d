import type { LoyaltyCard } from '../vouchers/voucher.js';
import { type LoyaltyTier, tierFor } from './tier.js';

/*
 * Which tier a card holds under its program's `loyalty_tiers_expiration` (the reference's
 * LoyaltyTiersExpirationAll). Pure: the points changes call it on the card they write, the reads
 * on the card as read, so a tier that expired is dropped lazily by whichever comes first (docs/decisions.md
 * "Loyalty tiers by period"). Calendar periods and dates are UTC, as the points' own expiry dates.
 */

export type QualificationPeriod = 'MONTH' | 'QUARTER' | 'HALF_YEAR' | 'YEAR';

/** A program's `loyalty_tiers_expiration`, stored as validated (lib/campaigns/campaign-lifecycle.schema.ts) and echoed. */
export interface TiersExpiration {
  qualification_type: 'BALANCE' | 'POINTS_IN_PERIOD';
  qualification_period?: QualificationPeriod | undefined;
  start_date: { type: 'IMMEDIATE' };
  expiration_date: {
    type: 'END_OF_PERIOD' | 'END_OF_NEXT_PERIOD' | 'BALANCE_DROP' | 'CUSTOM';
    extend: string;
    rounding?:
      | { type: QualificationPeriod | 'CUSTOM'; strategy?: 'START' | 'END' | undefined; unit?: 'MONTH' | undefined; value?: number | undefined }
      | undefined;
  };
}

/**
 * A program's `loyalty_tiers_expiration` as the points changes read it from the tier item: compiled
 * by `tierRuleOf` when the program is changed, so the code every points change bundles stays small.
 */
export interface TierRule {
  /** Months of the calendar qualification period (1, 3, 6, 12), when the setting names one. */
  n?: number;
  /** Tiers follow the points collected in the period (POINTS_IN_PERIOD), not the balance. */
  c?: boolean;
  /** Periods a reached tier lasts: 1 END_OF_PERIOD, 2 END_OF_NEXT_PERIOD, 0 CUSTOM; absent: BALANCE_DROP. */
  e?: number;
  /** `extend` (ISO 8601 date duration). */
  x: string;
  r?: Rounding;
}

type Rounding = TiersExpiration['expiration_date']['rounding'];

/** The tier a card holds: since when, and the last day it holds whatever the points say (absent/null: while they qualify). */
export type HeldTier = NonNullable<LoyaltyCard['tier']>;

const MONTHS: Record<QualificationPeriod, number> = { MONTH: 1, QUARTER: 3, HALF_YEAR: 6, YEAR: 12 };
const ENDS = { END_OF_PERIOD: 1, END_OF_NEXT_PERIOD: 2, CUSTOM: 0, BALANCE_DROP: undefined };

/** The compiled form of a program's setting (null: none, tiers follow the balance). */
export function tierRuleOf(cfg: TiersExpiration | null): TierRule | null {
  if (!cfg) return null;
  const { type, extend, rounding } = cfg.expiration_date;
  const e = ENDS[type];
  return {
    ...(cfg.qualification_period ? { n: MONTHS[cfg.qualification_period] } : {}),
    ...(cfg.qualification_type === 'POINTS_IN_PERIOD' ? { c: true } : {}),
    ...(e !== undefined ? { e } : {}),
    x: extend,
    ...(rounding ? { r: rounding } : {}),
  };
}

// Small on purpose: this module rides in every bundle that changes points, the checkout's among them (400 KiB limit).
const parts = (day: string): number[] => day.split('-').map(Number);
/** `YYYY-MM-DD` of a UTC day; Date.UTC normalises overflow (month 12 = January next year, day 0 = the last of the month before). */
export const isoDate = (year: number, month0: number, day: number): string => new Date(Date.UTC(year, month0, day)).toISOString().slice(0, 10);
export const daysIn = (year: number, month0: number): number => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();

/**
 * The calendar period of `n` months holding `day`: a key naming it (`year.firstMonth0.n`), its first
 * and its last day (`ends` periods on: 2 = the next one's last day).
 */
export function periodOf(day: string, n: number, ends = 1): { key: string; start: string; end: string } {
  const [y = 0, m = 1] = parts(day);
  const first = m - 1 - ((m - 1) % n);
  return { key: `${y}.${first}.${n}`, start: isoDate(y, first, 1), end: isoDate(y, first + ends * n, 0) };
}

/** `day` plus an ISO 8601 date duration (`P3M`, `P1Y2M10D`, `P2W`); months clamp the day to the target month's length. */
export function addDuration(day: string, duration: string): string {
  const [, y = 0, m = 0, w = 0, d = 0] = (/^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?$/.exec(duration) ?? []).map((v) => Number(v) || 0);
  const [year = 0, month = 1, date = 1] = parts(day);
  const to = month - 1 + y * 12 + m;
  return isoDate(year, to, Math.min(date, daysIn(year, to)) + w * 7 + d);
}

/**
 * A date rounded as `rounding` says: to the last day (END, the default) or the first (START) of the
 * month / quarter / half year / year holding it; CUSTOM with `value` M (0 = January) to the first
 * month M at or after it.
 */
export function rounded(day: string, rounding: Rounding): string {
  if (!rounding) return day;
  const start = rounding.strategy === 'START';
  if (rounding.type !== 'CUSTOM') return periodOf(day, MONTHS[rounding.type])[start ? 'start' : 'end'];
  const [y = 0, m = 1] = parts(day);
  const want = rounding.value ?? 0;
  const year = want >= m - 1 ? y : y + 1;
  return start ? isoDate(year, want, 1) : isoDate(year, want + 1, 0);
}

/** The last day a tier reached (or reached again) on `day` holds; null when it holds only while the points qualify. */
export const expiryFor = (rule: TierRule, day: string): string | null =>
  rule.e ? rounded(addDuration(periodOf(day, rule.n as number, rule.e).end, rule.x), rule.r) : null;

/** The key of the period holding `day` when the program qualifies by points collected in a period, else undefined. */
const periodKey = (rule: TierRule | null | undefined, day: string): string | undefined => (rule?.c ? periodOf(day, rule.n as number).key : undefined);

/** The points a card qualifies with on `day`: its balance, or what it collected in the period holding `day`. */
export function qualifyingPoints(card: LoyaltyCard, rule: TierRule | null | undefined, day: string): number {
  const key = periodKey(rule, day);
  return key === undefined ? card.balance : card.periodPoints?.period === key ? card.periodPoints.points : 0;
}

/**
 * The tier `card` holds at `now` (ISO time): the tier its qualifying points reach, unless the tier it
 * held is higher and has not expired. Without expiration settings, or with BALANCE_DROP, the
 * tier follows the points at once. END_OF_PERIOD / END_OF_NEXT_PERIOD date a tier when reached
 * (reaching it again later moves the date on; a tier held before the setting counts as reached at
 * the points' fall); CUSTOM dates it `extend` after the points fall below it (in a period that
 * rolled, from the first day after it) and undates it when they return.
 */
export function heldTier(card: LoyaltyCard, tiers: readonly LoyaltyTier[], rule: TierRule | null | undefined, now: string): HeldTier | null {
  const day = now.slice(0, 10);
  const earned = tierFor(qualifyingPoints(card, rule, day), tiers);
  const stored = card.tier;
  // `expires` undefined (no date setting) is left out of the stored item (the client drops undefined values).
  const reached = (t: LoyaltyTier, expires?: string | null): HeldTier => ({ id: t.id, since: stored?.id === t.id ? stored.since : now, expires });
  if (rule?.e === undefined) return earned && reached(earned);
  const until = expiryFor(rule, day);
  const kept = stored && !(stored.expires && stored.expires < day) ? tiers.find((t) => t.id === stored.id) : undefined;
  if (earned && !(kept && kept.points.from > earned.points.from)) {
    return reached(earned, stored?.id === earned.id && until && stored.expires && stored.expires > until ? stored.expires : until);
  }
  if (stored && kept) {
    if (stored.expires) return stored;
    const key = periodKey(rule, day);
    const [y = 0, f = 0, n = 0] = (card.periodPoints?.period ?? '').split('.').map(Number);
    // The points fell today or, in a period that rolled with no write since, on the first day after the one they were collected in.
    const fell = key && card.periodPoints && card.periodPoints.period !== key ? isoDate(y, f + n, 1) : day;
    const expires = until ?? rounded(addDuration(fell, rule.x), rule.r);
    if (expires >= day) return { ...stored, expires };
  }
  return earned && reached(earned, until);
}

/** The card with what it collected in the current period, raised by what its lifetime total rose (POINTS_IN_PERIOD only). */
export function withCollected(before: LoyaltyCard, after: LoyaltyCard, rule: TierRule | null | undefined, day: string): LoyaltyCard {
  const period = periodKey(rule, day);
  if (period === undefined) return after;
  return { ...after, periodPoints: { period, points: qualifyingPoints(before, rule, day) + Math.max(0, after.points - before.points) } };
}

/** A program's tiers and their compiled expiration setting, as one points change reads them (one item). */
export interface TierRules {
  tiers: readonly LoyaltyTier[];
  expiration?: TierRule | null | undefined;
}

/** The tier object a card holds at `now`, or null. */
export function cardTier(card: LoyaltyCard, rules: TierRules, now: string): LoyaltyTier | null {
  const held = heldTier(card, rules.tiers, rules.expiration, now);
  return rules.tiers.find((t) => t.id === held?.id) ?? null;
}

/**
 * The card a points change writes (`after`, changed from `before`), with its period counter and
 * its tier field: `tierChanges` counts the changes of tier (not of a date).
 */
export function withTier(before: LoyaltyCard, after: LoyaltyCard, rules: TierRules, now: string): LoyaltyCard {
  const card = withCollected(before, after, rules.expiration, now.slice(0, 10));
  const was = card.tier;
  const next = heldTier(card, rules.tiers, rules.expiration, now);
  if (JSON.stringify(next) === JSON.stringify(was ?? null)) return card;
  return { ...card, tier: next, tierChanges: (card.tierChanges ?? 0) + (next?.id === was?.id ? 0 : 1) };
}
