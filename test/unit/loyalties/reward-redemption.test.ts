import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planChange } from '../../../lib/loyalties/loyalty-card.js';
import type { PointsBucket } from '../../../lib/loyalties/points-bucket.js';
import { coinPayment, outOfStock, refundablePoints, spentPointsOf } from '../../../lib/loyalties/reward-redemption.js';
import type { Reward } from '../../../lib/rewards/reward.js';
import type { LoyaltyCard } from '../../../lib/vouchers/voucher.js';

const today = '2026-02-10';
const dates = ['2026-01-31', '2026-02-10', '2026-03-31', '2026-06-30', null] as const;

const bucket = (id: number, points: number, expiresAt: string | null): PointsBucket => ({
  id: `lopb_${String(id).padStart(4, '0')}`,
  projectId: 'p',
  campaignId: 'camp',
  voucherId: 'v',
  points,
  status: 'ACTIVE',
  expiresAt,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** A card holding `buckets` and `loose` bucket-less points. */
function cardOf(buckets: PointsBucket[], loose: number): LoyaltyCard {
  const bucketed = buckets.reduce((s, b) => s + b.points, 0);
  return {
    points: bucketed + loose,
    balance: bucketed + loose,
    bucketedPoints: bucketed,
    expiredPoints: 0,
    subtractedPoints: 0,
    nextExpirationDate: null,
    nextExpirationPoints: null,
    pendingPoints: 0,
  };
}

const cardArb = fc
  .record({
    buckets: fc.array(fc.record({ points: fc.integer({ min: 1, max: 50 }), date: fc.constantFrom(...dates) }), { maxLength: 8 }),
    loose: fc.integer({ min: 0, max: 50 }),
  })
  .map(({ buckets, loose }) => {
    const bs = buckets.map((b, i) => bucket(i, b.points, b.date));
    return { buckets: bs, card: cardOf(bs, loose) };
  });

describe('spentPointsOf', () => {
  it('accounts for every point a spend takes, by expiry, and only from unexpired buckets or loose points', () => {
    fc.assert(
      fc.property(cardArb, fc.integer({ min: 1, max: 400 }), ({ buckets, card }, want) => {
        const live = buckets.filter((b) => b.expiresAt === null || b.expiresAt >= today).reduce((s, b) => s + b.points, 0);
        const available = live + (card.balance - (card.bucketedPoints ?? 0));
        fc.pre(want <= available);
        const plan = planChange({ card, buckets }, { kind: 'spend', points: want }, today);
        const spent = spentPointsOf(plan, want);
        expect(spent.reduce((s, x) => s + x.points, 0)).toBe(want);
        for (const s of spent) expect(s.expiresAt === null || s.expiresAt >= today).toBe(true);
        // Merged by date, soonest first.
        const keys = spent.map((s) => s.expiresAt ?? '9999-12-31');
        expect([...keys].sort()).toEqual(keys);
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });

  it('takes the soonest-expiring points first', () => {
    const buckets = [bucket(1, 10, '2026-06-30'), bucket(2, 4, '2026-03-31')];
    const plan = planChange({ card: cardOf(buckets, 5), buckets }, { kind: 'spend', points: 16 }, today);
    expect(spentPointsOf(plan, 16)).toEqual([
      { expiresAt: '2026-03-31', points: 4 },
      { expiresAt: '2026-06-30', points: 10 },
      { expiresAt: null, points: 2 },
    ]);
  });
});

describe('refundablePoints', () => {
  it('gives back only the points whose expiry has not passed', () => {
    const spent = [
      { expiresAt: '2026-02-09', points: 3 },
      { expiresAt: '2026-02-10', points: 4 },
      { expiresAt: null, points: 5 },
    ];
    expect(refundablePoints(spent, today)).toEqual([
      { expiresAt: '2026-02-10', points: 4 },
      { expiresAt: null, points: 5 },
    ]);
  });
});

describe('outOfStock', () => {
  const reward = (stock: number | null, redeemed: number | null) => ({ stock, redeemed }) as Reward;
  it('is out of stock only when a stock is set and used up', () => {
    expect(outOfStock(reward(null, null))).toBe(false);
    expect(outOfStock(reward(3, null))).toBe(false);
    expect(outOfStock(reward(3, 2))).toBe(false);
    expect(outOfStock(reward(3, 3))).toBe(true);
    expect(outOfStock(reward(0, null))).toBe(true);
  });
});

describe('coinPayment', () => {
  const coin = { exchangeRatio: 1, pointsRatio: 2 };
  it('turns the points named into minor units at the ratio, at most the order', () => {
    expect(coinPayment(coin, 45_000, 100, 1000)).toEqual({ points: 100, discount: 5_000 });
    expect(coinPayment({ exchangeRatio: 0.2, pointsRatio: 1 }, 45_000, 100, 1000)).toEqual({ points: 100, discount: 2_000 });
  });

  it('takes only the points the discount needs when more are named than the order absorbs (issue 41 item 1)', () => {
    // 1 point = 1.00: an order of 10.00 needs 10 points, not the 500 named.
    expect(coinPayment({ exchangeRatio: 1, pointsRatio: 1 }, 1_000, 500, 1000)).toEqual({ points: 10, discount: 1_000 });
    expect(coinPayment(coin, 1_000, 100, 1000)).toEqual({ points: 20, discount: 1_000 });
    // A part of a point's worth needs the whole point: 10.01 at 0.50 a point is 21 points.
    expect(coinPayment(coin, 1_001, 100, 1000)).toEqual({ points: 21, discount: 1_001 });
    // A point worth 0.1 minor units: 15 points are worth 1 (rounded down), which 10 points pay.
    expect(coinPayment({ exchangeRatio: 1, pointsRatio: 1000 }, 5_000, 15, 1000)).toEqual({ points: 10, discount: 1 });
  });

  it('without points named, pays the whole order, at most the balance', () => {
    expect(coinPayment(coin, 3_000, undefined, 1000)).toEqual({ points: 60, discount: 3_000 });
    expect(coinPayment(coin, 3_001, undefined, 1000)).toEqual({ points: 61, discount: 3_001 });
    expect(coinPayment(coin, 300_000, undefined, 1000)).toEqual({ points: 1000, discount: 50_000 });
  });

  it('never gives more than the order, never takes more than named, and takes no point the discount does not need', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
        fc.integer({ min: 0, max: 100_000 }),
        (ratioCents, pointsRatio, amount, requested, available) => {
          const c = { exchangeRatio: ratioCents / 100, pointsRatio };
          const perPoint = ratioCents / pointsRatio;
          const { points, discount } = coinPayment(c, amount, requested, available);
          expect(Number.isInteger(points) && Number.isInteger(discount)).toBe(true);
          expect(discount).toBeGreaterThanOrEqual(0);
          expect(discount).toBeLessThanOrEqual(amount);
          // What the points are worth covers the discount ...
          expect(discount).toBeLessThanOrEqual(points * perPoint + 1e-6);
          // ... and exceeds it by less than one point's worth: one point fewer would not pay it.
          expect(points * perPoint).toBeLessThan(discount + perPoint + 1e-6);
          expect(points).toBeLessThanOrEqual(requested ?? available);
        },
      ),
    );
  });
});
