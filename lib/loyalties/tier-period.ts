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

/** The tier a card holds: since when, and the last day it holds whatever the points say (absent/null: while they qualify). */
export type HeldTier = NonNullable<LoyaltyCard['tier']>;

const MONTHS: Record<QualificationPeriod, number> = { MONTH: 1, QUARTER: 3, HALF_YEAR: 6, YEAR: 12 };

const pad = (n: number): string => String(n).padStart(2, '0');
/** `YYYY-MM-DD` of a UTC day; Date.UTC normalises overflow (month 12 = January next year, day 0 = the last of the month before). */
const ymd = (y: number, m0: number, d: number): string => {
  const t = new Date(Date.UTC(y, m0, d));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
};
const parts = (day: string): [number, number, number] => [Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))];

/** The calendar period holding `day`: a key naming it, its first and its last day. */
export function periodOf(day: string, period: QualificationPeriod): { key: string; start: string; end: string } {
  const [y, m0] = parts(day);
  const n = MONTHS[period];
  const first0 = m0 - (m0 % n);
  return { key: `${y}-${period[0]}${first0 / n + 1}`, start: ymd(y, first0, 1), end: ymd(y, first0 + n, 0) };
}

/** `day` plus an ISO 8601 date duration (`P3M`, `P1Y2M10D`, `P2W`); months clamp the day to the target month's length. */
export function addDuration(day: string, duration: string): string {
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?$/.exec(duration);
  if (!m) return day;
  const [y, m0, d] = parts(day);
  const months = m0 + Number(m[1] ?? 0) * 12 + Number(m[2] ?? 0);
  const last = Number(ymd(y, months + 1, 0).slice(8, 10));
  return ymd(y, months, Math.min(d, last) + Number(m[3] ?? 0) * 7 + Number(m[4] ?? 0));
}

type Rounding = TiersExpiration['expiration_date']['rounding'];

/**
 * A date rounded as `rounding` says: to the last day (END, the default) or the first (START) of the
 * month / quarter / half year / year holding it; CUSTOM with `value` M (0 = January) to the first
 * month M at or after it.
 */
export function rounded(day: string, rounding: Rounding): string {
  if (!rounding) return day;
  const start = rounding.strategy === 'START';
  if (rounding.type === 'CUSTOM') {
    const [y, m0] = parts(day);
    const want = Math.min(Math.max(rounding.value ?? 0, 0), 11);
    const year = want >= m0 ? y : y + 1;
    return start ? ymd(year, want, 1) : ymd(year, want + 1, 0);
  }
  const p = periodOf(day, rounding.type);
  return start ? p.start : p.end;
}

/** The last day a tier reached (or reached again) on `day` holds; null when it holds only while the points qualify. */
export function expiryFor(cfg: TiersExpiration, day: string): string | null {
  const rule = cfg.expiration_date;
  if (rule.type === 'BALANCE_DROP' || rule.type === 'CUSTOM') return null;
  const period = cfg.qualification_period ?? 'YEAR';
  let end = periodOf(day, period).end;
  if (rule.type === 'END_OF_NEXT_PERIOD') end = periodOf(ymd(...plusOne(end)), period).end;
  return rounded(addDuration(end, rule.extend), rule.rounding);
}

const plusOne = (day: string): [number, number, number] => {
  const [y, m0, d] = parts(day);
  return [y, m0, d + 1];
};

/** The first day after the period a key of periodOf names. */
const afterPeriod = (key: string, period: QualificationPeriod): string => ymd(Number(key.slice(0, 4)), Number(key.slice(6)) * MONTHS[period], 1);

/** The points a card qualifies with on `day`: its balance, or what it collected in the period holding `day`. */
export function qualifyingPoints(card: LoyaltyCard, cfg: TiersExpiration | null | undefined, day: string): number {
  if (cfg?.qualification_type !== 'POINTS_IN_PERIOD') return card.balance;
  const collected = card.periodPoints;
  return collected && collected.period === periodOf(day, cfg.qualification_period ?? 'YEAR').key ? collected.points : 0;
}

/**
 * The tier `card` holds at `now` (ISO time): the tier its qualifying points reach, unless the tier it
 * held is higher and has not expired. Without expiration settings, or with BALANCE_DROP, the
 * tier follows the points at once. END_OF_PERIOD / END_OF_NEXT_PERIOD date a tier when reached
 * (reaching it again later moves the date on); CUSTOM dates it `extend` after the points fall
 * below it (in a period that rolled, from the period's first day) and undates it when they return.
 */
export function heldTier(card: LoyaltyCard, tiers: readonly LoyaltyTier[], cfg: TiersExpiration | null | undefined, now: string): HeldTier | null {
  const day = now.slice(0, 10);
  const earned = tierFor(qualifyingPoints(card, cfg, day), tiers);
  const stored = card.tier ?? null;
  const since = (id: string): string => (stored?.id === id ? stored.since : now);
  const rule = cfg?.expiration_date;
  if (!cfg || !rule || rule.type === 'BALANCE_DROP') return earned ? { id: earned.id, since: since(earned.id) } : null;
  const kept = stored ? tiers.find((t) => t.id === stored.id) : undefined;
  const holds = stored && kept && (stored.expires == null || stored.expires >= day) ? kept : null;
  if (earned && (!holds || earned.points.from >= holds.points.from)) {
    const until = expiryFor(cfg, day);
    const expires = stored?.id === earned.id && stored.expires && until !== null && stored.expires > until ? stored.expires : until;
    return { id: earned.id, since: since(earned.id), expires };
  }
  if (stored && holds) {
    if (stored.expires != null) return stored;
    const collected = cfg.qualification_type === 'POINTS_IN_PERIOD' ? card.periodPoints : undefined;
    // The points fell today, or (a period that rolled with no write since) on the first day after the period they were collected in.
    const fell =
      collected && collected.period !== periodOf(day, cfg.qualification_period ?? 'YEAR').key
        ? afterPeriod(collected.period, cfg.qualification_period ?? 'YEAR')
        : day;
    const expires = rule.type === 'CUSTOM' ? rounded(addDuration(fell, rule.extend), rule.rounding) : (expiryFor(cfg, stored.since.slice(0, 10)) as string);
    if (expires >= day) return { ...stored, expires };
  }
  return earned ? { id: earned.id, since: now, expires: expiryFor(cfg, day) } : null;
}

/** The card with what it collected in the current period, raised by what its lifetime total rose (POINTS_IN_PERIOD only). */
export function withCollected(before: LoyaltyCard, after: LoyaltyCard, cfg: TiersExpiration | null | undefined, day: string): LoyaltyCard {
  if (cfg?.qualification_type !== 'POINTS_IN_PERIOD') return after;
  const key = periodOf(day, cfg.qualification_period ?? 'YEAR').key;
  const base = before.periodPoints?.period === key ? before.periodPoints.points : 0;
  return { ...after, periodPoints: { period: key, points: base + Math.max(0, after.points - before.points) } };
}

/** A program's tiers and their expiration settings, as one points change reads them (one item). */
export interface TierRules {
  tiers: readonly LoyaltyTier[];
  expiration?: TiersExpiration | null | undefined;
}

/** The tier object a card holds at `now`, or null. */
export function cardTier(card: LoyaltyCard, rules: TierRules, now: string): LoyaltyTier | null {
  const held = heldTier(card, rules.tiers, rules.expiration, now);
  return held ? (rules.tiers.find((t) => t.id === held.id) ?? null) : null;
}

/**
 * The card a points change writes (`after`, changed from `before`), with its period counter and
 * its tier field: `tierChanges` counts the changes of tier (not of a date).
 */
export function withTier(before: LoyaltyCard, after: LoyaltyCard, rules: TierRules, now: string): LoyaltyCard {
  const card = withCollected(before, after, rules.expiration, now.slice(0, 10));
  const was = card.tier ?? null;
  const next = heldTier(card, rules.tiers, rules.expiration, now);
  if (next?.id === was?.id && next?.since === was?.since && (next?.expires ?? null) === (was?.expires ?? null)) return card;
  return { ...card, tier: next, tierChanges: (card.tierChanges ?? 0) + (next?.id === was?.id ? 0 : 1) };
}
