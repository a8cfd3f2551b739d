import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoyaltyTier } from '../../../lib/loyalties/tier.js';
import {
  addDuration,
  expiryFor,
  heldTier,
  periodOf,
  type QualificationPeriod,
  qualifyingPoints,
  rounded,
  type TiersExpiration,
  tierRuleOf,
  withCollected,
  withTier,
} from '../../../lib/loyalties/tier-period.js';
import type { LoyaltyCard } from '../../../lib/vouchers/voucher.js';

const PERIODS: QualificationPeriod[] = ['MONTH', 'QUARTER', 'HALF_YEAR', 'YEAR'];
const MONTHS = { MONTH: 1, QUARTER: 3, HALF_YEAR: 6, YEAR: 12 };

/** Any UTC day of 1999–2101, as `YYYY-MM-DD`. */
const anyDay = fc.integer({ min: Date.UTC(1999, 0, 1), max: Date.UTC(2101, 11, 31) }).map((t) => new Date(t).toISOString().slice(0, 10));
const nextDay = (d: string): string => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const monthsBetween = (a: string, b: string): number => (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5, 7)) - Number(a.slice(5, 7));

const tier = (id: string, from: number, to: number | null): LoyaltyTier => ({
  id,
  campaignId: 'camp_1',
  name: id,
  points: { from, to },
  earningRules: {},
  rewards: {},
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
});
const tiers = [tier('silver', 100, 199), tier('gold', 200, null)];
const card = (balance: number, extra: Partial<LoyaltyCard> = {}): LoyaltyCard => ({
  points: balance,
  balance,
  nextExpirationDate: null,
  nextExpirationPoints: null,
  pendingPoints: 0,
  expiredPoints: 0,
  subtractedPoints: 0,
  ...extra,
});
const cfg = (type: TiersExpiration['expiration_date']['type'], extra: Partial<TiersExpiration> = {}, extend = '') =>
  tierRuleOf({
    qualification_type: 'POINTS_IN_PERIOD',
    qualification_period: 'MONTH',
    start_date: { type: 'IMMEDIATE' },
    expiration_date: { type, extend },
    ...extra,
  }) as NonNullable<ReturnType<typeof tierRuleOf>>;

describe('periodOf', () => {
  it('names calendar periods and their first and last days, February of leap years included', () => {
    expect(periodOf('2024-02-10', 1)).toEqual({ key: '2024.1.1', start: '2024-02-01', end: '2024-02-29' });
    expect(periodOf('2100-02-10', 1).end).toBe('2100-02-28');
    expect(periodOf('2000-02-10', 1).end).toBe('2000-02-29');
    expect(periodOf('2026-05-31', 3)).toEqual({ key: '2026.3.3', start: '2026-04-01', end: '2026-06-30' });
    expect(periodOf('2026-07-01', 6)).toEqual({ key: '2026.6.6', start: '2026-07-01', end: '2026-12-31' });
    expect(periodOf('2026-12-31', 12)).toEqual({ key: '2026.0.12', start: '2026-01-01', end: '2026-12-31' });
  });

  it('holds its day, spans its number of months, and the day after its end opens the next period (property)', () => {
    fc.assert(
      fc.property(anyDay, fc.constantFrom(...PERIODS), (day, name) => {
        const period = MONTHS[name];
        const p = periodOf(day, period);
        expect(p.start <= day && day <= p.end).toBe(true);
        expect(p.start.slice(8)).toBe('01');
        expect(monthsBetween(p.start, p.end)).toBe(period - 1);
        expect(periodOf(p.start, period)).toEqual(p);
        expect(periodOf(p.end, period)).toEqual(p);
        const next = periodOf(nextDay(p.end), period);
        expect(next.start).toBe(nextDay(p.end));
        expect(next.key).not.toBe(p.key);
      }),
    );
  });
});

describe('addDuration and rounded', () => {
  it('adds months clamped to the month’s length, and weeks and days after', () => {
    expect(addDuration('2026-01-31', 'P1M')).toBe('2026-02-28');
    expect(addDuration('2024-01-31', 'P1M')).toBe('2024-02-29');
    expect(addDuration('2024-02-29', 'P1Y')).toBe('2025-02-28');
    expect(addDuration('2026-12-31', 'P2W')).toBe('2027-01-14');
    expect(addDuration('2026-06-30', 'P1M1D')).toBe('2026-07-31');
    expect(addDuration('2026-06-30', '')).toBe('2026-06-30');
    expect(addDuration('2026-06-30', 'P')).toBe('2026-06-30');
  });

  it('never goes back, and adds exactly the months asked (property)', () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: 0, max: 40 }), (day, months) => {
        const later = addDuration(day, `P${months}M`);
        expect(later >= day).toBe(true);
        expect(monthsBetween(day, later)).toBe(months);
      }),
    );
  });

  it('rounds to the end (default) or start of the period holding the day, or to a chosen month', () => {
    expect(rounded('2026-02-10', { type: 'MONTH' })).toBe('2026-02-28');
    expect(rounded('2026-02-10', { type: 'QUARTER', strategy: 'START' })).toBe('2026-01-01');
    expect(rounded('2026-02-10', { type: 'CUSTOM', unit: 'MONTH', value: 1 })).toBe('2026-02-28');
    expect(rounded('2026-03-10', { type: 'CUSTOM', unit: 'MONTH', value: 1 })).toBe('2027-02-28');
    expect(rounded('2026-03-10', undefined)).toBe('2026-03-10');
  });
});

describe('expiryFor', () => {
  it('dates END_OF_PERIOD and END_OF_NEXT_PERIOD by the qualification period, extended then rounded; not the others', () => {
    expect(expiryFor(cfg('END_OF_PERIOD'), '2026-02-10')).toBe('2026-02-28');
    expect(expiryFor(cfg('END_OF_NEXT_PERIOD'), '2026-02-10')).toBe('2026-03-31');
    expect(expiryFor(cfg('END_OF_NEXT_PERIOD', { qualification_period: 'HALF_YEAR' }), '2026-12-31')).toBe('2027-06-30');
    expect(expiryFor(cfg('END_OF_PERIOD', {}, 'P3M'), '2026-11-30')).toBe('2027-02-28');
    expect(expiryFor(cfg('BALANCE_DROP'), '2026-02-10')).toBeNull();
    expect(expiryFor(cfg('CUSTOM', {}, 'P1M'), '2026-02-10')).toBeNull();
  });

  it('END_OF_PERIOD is the last day of the period, END_OF_NEXT_PERIOD that of the next one (property)', () => {
    fc.assert(
      fc.property(anyDay, fc.constantFrom(...PERIODS), (day, period) => {
        const end = expiryFor(cfg('END_OF_PERIOD', { qualification_period: period }), day) as string;
        expect(end).toBe(periodOf(day, MONTHS[period]).end);
        const next = expiryFor(cfg('END_OF_NEXT_PERIOD', { qualification_period: period }), day) as string;
        expect(next).toBe(periodOf(nextDay(end), MONTHS[period]).end);
      }),
    );
  });
});

describe('qualifying points and the period counter', () => {
  it('counts what the lifetime total rose by in the current period, restarting when the period rolls', () => {
    const monthly = cfg('END_OF_PERIOD');
    const feb = withCollected(card(0), card(150), monthly, '2026-02-27');
    expect(feb.periodPoints).toEqual({ period: '2026.1.1', points: 150 });
    const spent = withCollected(feb, { ...feb, balance: 20 }, monthly, '2026-02-28');
    expect(spent.periodPoints).toEqual({ period: '2026.1.1', points: 150 });
    const march = withCollected(spent, { ...spent, points: 200, balance: 70 }, monthly, '2026-03-01');
    expect(march.periodPoints).toEqual({ period: '2026.2.1', points: 50 });
    expect(qualifyingPoints(march, monthly, '2026-03-15')).toBe(50);
    expect(qualifyingPoints(march, monthly, '2026-04-01')).toBe(0);
    expect(qualifyingPoints(march, undefined, '2026-04-01')).toBe(70);
    expect(withCollected(card(0), card(150), undefined, '2026-02-27').periodPoints).toBeUndefined();
  });
});

describe('heldTier', () => {
  const now = (day: string): string => `${day}T10:00:00.000Z`;

  it('without settings, or with BALANCE_DROP, follows the qualifying points at once', () => {
    expect(heldTier(card(250), tiers, undefined, now('2026-02-10'))).toEqual({ id: 'gold', since: now('2026-02-10') });
    const wasGold = card(120, { tier: { id: 'gold', since: 't0' } });
    expect(heldTier(wasGold, tiers, cfg('BALANCE_DROP', { qualification_type: 'BALANCE' }), now('2026-02-10'))).toEqual({
      id: 'silver',
      since: now('2026-02-10'),
    });
  });

  it('holds a dated tier to its last day, then drops to what the new period gives', () => {
    const monthly = cfg('END_OF_PERIOD');
    const gold = card(0, { periodPoints: { period: '2026.1.1', points: 250 }, tier: { id: 'gold', since: 't0', expires: '2026-02-28' } });
    expect(heldTier(gold, tiers, monthly, now('2026-02-28'))).toEqual(gold.tier);
    expect(heldTier(gold, tiers, monthly, now('2026-03-01'))).toBeNull();
    const silverInMarch = { ...gold, periodPoints: { period: '2026.2.1', points: 120 } };
    expect(heldTier(silverInMarch, tiers, monthly, now('2026-03-02'))).toEqual({ id: 'silver', since: now('2026-03-02'), expires: '2026-03-31' });
  });

  it('moves the date on when the tier is reached again in a later period, never back', () => {
    const later = cfg('END_OF_NEXT_PERIOD');
    const gold = card(0, { periodPoints: { period: '2026.2.1', points: 300 }, tier: { id: 'gold', since: 't0', expires: '2026-03-31' } });
    expect(heldTier(gold, tiers, later, now('2026-03-05'))).toEqual({ id: 'gold', since: 't0', expires: '2026-04-30' });
    const farther = { ...gold, tier: { id: 'gold', since: 't0', expires: '2026-12-31' } };
    expect(heldTier(farther, tiers, later, now('2026-03-05'))?.expires).toBe('2026-12-31');
  });

  it('CUSTOM: dates the tier `extend` after the points fall (from the period’s first day when it rolled)', () => {
    const custom = { ...cfg('CUSTOM', {}, 'P1M') };
    const gold = card(0, { periodPoints: { period: '2026.1.1', points: 250 }, tier: { id: 'gold', since: 't0' } });
    expect(heldTier(gold, tiers, custom, now('2026-02-20'))).toEqual({ id: 'gold', since: 't0', expires: null });
    expect(heldTier(gold, tiers, custom, now('2026-03-20'))).toEqual({ id: 'gold', since: 't0', expires: '2026-04-01' });
    expect(heldTier(gold, tiers, custom, now('2026-04-01'))?.expires).toBe('2026-04-01');
    expect(heldTier(gold, tiers, custom, now('2026-04-02'))).toBeNull();
  });

  it('never holds less than the points reach, and never holds a tier past its date (property)', () => {
    const types = fc.constantFrom<TiersExpiration['expiration_date']['type']>('END_OF_PERIOD', 'END_OF_NEXT_PERIOD', 'BALANCE_DROP', 'CUSTOM');
    fc.assert(
      fc.property(
        types,
        fc.constantFrom(...PERIODS),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: -150, max: 150 })), { minLength: 1, maxLength: 25 }),
        (type, period, steps) => {
          const settings = cfg(type, { qualification_period: period }, 'P1M');
          let c = card(0);
          let t = Date.UTC(2026, 0, 1);
          for (const [days, delta] of steps) {
            t += days * 86_400_000;
            const at = new Date(t).toISOString();
            const after = delta >= 0 ? { ...c, points: c.points + delta, balance: c.balance + delta } : { ...c, balance: Math.max(0, c.balance + delta) };
            c = withTier(c, after, { tiers, expiration: settings }, at);
            const reached = qualifyingPoints(c, settings, at.slice(0, 10));
            const held = tiers.find((x) => x.id === c.tier?.id);
            if (reached >= 100) expect((held?.points.from ?? -1) >= (reached >= 200 ? 200 : 100)).toBe(true);
            if (c.tier?.expires) expect(c.tier.expires >= at.slice(0, 10)).toBe(true);
          }
        },
      ),
    );
  });
});
