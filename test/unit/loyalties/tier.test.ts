import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PointsBucket } from '../../../lib/loyalties/points-bucket.js';
import { type LoyaltyTier, mappedPoints, rangesOverlap, tieredChange, tierFor, tierRewardPrice, tierRuleLoyalty } from '../../../lib/loyalties/tier.js';
import { withTier } from '../../../lib/loyalties/tier-period.js';
import type { LoyaltyCard } from '../../../lib/vouchers/voucher.js';

const tier = (id: string, from: number, to: number | null, extra: Partial<LoyaltyTier> = {}): LoyaltyTier => ({
  id,
  campaignId: 'camp_1',
  name: id,
  points: { from, to },
  earningRules: {},
  rewards: {},
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  ...extra,
});

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

/** Tiers with adjacent, non-overlapping ranges built from sorted cut points (the last one open or closed). */
const ladder = fc.tuple(fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { minLength: 2, maxLength: 8 }), fc.boolean()).map(([cuts, open]) => {
  const sorted = [...cuts].sort((a, b) => a - b);
  return sorted.slice(0, -1).map((from, i) => {
    const next = sorted[i + 1] as number;
    const last = i === sorted.length - 2;
    return tier(`ltr_${i}`, from, last && open ? null : next - 1);
  });
});

describe('tierFor', () => {
  it('puts a balance in the tier whose range holds it, both ends included, and in none below or between', () => {
    const tiers = [tier('bronze', 1, 249), tier('silver', 250, 499), tier('gold', 600, null)];
    expect(tierFor(0, tiers)).toBeNull();
    expect(tierFor(1, tiers)?.id).toBe('bronze');
    expect(tierFor(249, tiers)?.id).toBe('bronze');
    expect(tierFor(250, tiers)?.id).toBe('silver');
    expect(tierFor(550, tiers)).toBeNull();
    expect(tierFor(1_000_000, tiers)?.id).toBe('gold');
  });

  it('returns a tier that holds the points, and one whenever some tier does (property)', () => {
    fc.assert(
      fc.property(ladder, fc.integer({ min: -5, max: 12_000 }), (tiers, points) => {
        const found = tierFor(points, tiers);
        const holding = tiers.filter((t) => t.points.from <= points && (t.points.to === null || points <= t.points.to));
        expect(holding.length).toBeLessThanOrEqual(1);
        expect(found?.id ?? null).toBe(holding[0]?.id ?? null);
      }),
    );
  });

  it('never moves a card to a lower tier when its balance grows (property)', () => {
    fc.assert(
      fc.property(ladder, fc.nat(12_000), fc.nat(12_000), (tiers, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const lo = tierFor(low, tiers);
        const hi = tierFor(high, tiers);
        if (lo && hi) expect(hi.points.from).toBeGreaterThanOrEqual(lo.points.from);
      }),
    );
  });

  it('tells overlapping ranges apart from adjacent ones', () => {
    expect(rangesOverlap({ from: 0, to: 10 }, { from: 11, to: null })).toBe(false);
    expect(rangesOverlap({ from: 0, to: 10 }, { from: 10, to: 20 })).toBe(true);
    expect(rangesOverlap({ from: 5, to: null }, { from: 100, to: 200 })).toBe(true);
  });
});

describe('mappings', () => {
  it('multiplies rounding down, replaces with CUSTOM, keeps unmapped points, never goes below zero', () => {
    expect(mappedPoints(10, { type: 'MULTIPLY', multiplier: 1.5 })).toBe(15);
    expect(mappedPoints(5, { type: 'MULTIPLY', multiplier: 1.5 })).toBe(7);
    expect(mappedPoints(10, { type: 'CUSTOM', points: 3 })).toBe(3);
    expect(mappedPoints(10, undefined)).toBe(10);
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.double({ min: 0, max: 1000, noNaN: true }), (points, multiplier) => {
        const out = mappedPoints(points, { type: 'MULTIPLY', multiplier });
        expect(Number.isInteger(out)).toBe(true);
        expect(out).toBeGreaterThanOrEqual(0);
        expect(out).toBeLessThanOrEqual(points * multiplier);
      }),
    );
  });

  it("prices a reward by the tier's mapping of its reward id, else of its assignment id", () => {
    const gold = tier('gold', 0, null, { rewards: { rew_1: { type: 'CUSTOM', points: 30 }, rewa_2: { type: 'MULTIPLY', multiplier: 0.5 } } });
    expect(tierRewardPrice(100, gold, 'rew_1', 'rewa_1')).toBe(30);
    expect(tierRewardPrice(100, gold, 'rew_2', 'rewa_2')).toBe(50);
    expect(tierRewardPrice(100, gold, 'rew_3', 'rewa_3')).toBe(100);
    expect(tierRewardPrice(100, null, 'rew_1')).toBe(100);
  });

  it('maps only earned buckets of an add, and only a reward spend', () => {
    const gold = tier('gold', 0, null, { earningRules: { ern_1: { type: 'MULTIPLY', multiplier: 2 } }, rewards: { rew_1: { type: 'CUSTOM', points: 1 } } });
    const bucket = (id: string, points: number, earningRuleId?: string) =>
      ({ id, points, ...(earningRuleId ? { earningRuleId } : {}) }) as unknown as PointsBucket;
    const add = tieredChange({ kind: 'add', buckets: [bucket('a', 10, 'ern_1'), bucket('b', 10), bucket('c', 10, 'ern_2')] }, gold);
    expect(add.kind === 'add' && add.buckets.map((b) => b.points)).toEqual([20, 10, 10]);
    expect(tieredChange({ kind: 'spend', points: 9 }, gold)).toEqual({ kind: 'spend', points: 9 });
    expect(tieredChange({ kind: 'spend', points: 9, reward: { id: 'rew_1' } }, gold)).toMatchObject({ points: 1 });
  });

  it("shows a rule's points as the tier's members earn them", () => {
    const fixed = { type: 'FIXED', points: 10 } as const;
    expect(tierRuleLoyalty(fixed, { type: 'MULTIPLY', multiplier: 3 })).toEqual({ type: 'FIXED', points: 30 });
    expect(tierRuleLoyalty(fixed, { type: 'CUSTOM', points: 4 })).toEqual({ type: 'FIXED', points: 4 });
    const proportional = { type: 'PROPORTIONAL', calculation_type: 'ORDER_AMOUNT', order: { amount: { every: 100, points: 2 } } };
    expect(tierRuleLoyalty(proportional, { type: 'MULTIPLY', multiplier: 2 })).toEqual({ ...proportional, order: { amount: { every: 100, points: 4 } } });
  });
});

describe('withTier', () => {
  const tiers = [tier('silver', 100, 199), tier('gold', 200, null)];

  it('keeps the card as it is while its tier stays, and counts each change with its time', () => {
    const inSilver = card(150, { tier: { id: 'silver', since: 't0' }, tierChanges: 1 });
    expect(withTier(inSilver, inSilver, { tiers }, 't1')).toBe(inSilver);
    expect(withTier(inSilver, { ...inSilver, balance: 250 }, { tiers }, 't1')).toMatchObject({ tier: { id: 'gold', since: 't1' }, tierChanges: 2 });
    expect(withTier(inSilver, { ...inSilver, balance: 50 }, { tiers }, 't1')).toMatchObject({ tier: null, tierChanges: 2 });
    expect(withTier(card(50), card(50), { tiers }, 't1')).toEqual(card(50));
  });

  it('changes the tier exactly when the balance crosses into another range (property)', () => {
    fc.assert(
      fc.property(ladder, fc.array(fc.integer({ min: 0, max: 12_000 }), { minLength: 1, maxLength: 20 }), (ladderTiers, balances) => {
        let c = card(0);
        let changes = 0;
        for (const [i, balance] of balances.entries()) {
          const before = c.tier?.id ?? null;
          c = withTier(c, { ...c, balance }, { tiers: ladderTiers }, `t${i}`);
          const after = tierFor(balance, ladderTiers)?.id ?? null;
          if (before !== after) changes += 1;
          expect(c.tier?.id ?? null).toBe(after);
        }
        expect(c.tierChanges ?? 0).toBe(changes);
      }),
    );
  });
});
