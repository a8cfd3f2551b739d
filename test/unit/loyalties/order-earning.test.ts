import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planChange } from '../../../lib/loyalties/loyalty-card.js';
import { takeBackShares } from '../../../lib/loyalties/order-earning.js';
import type { PointsBucket } from '../../../lib/loyalties/points-bucket.js';
import type { LoyaltyCard } from '../../../lib/vouchers/voucher.js';

describe('takeBackShares', () => {
  it('takes back each earning in turn while points are left', () => {
    expect(takeBackShares([5, 10], 100)).toEqual([5, 10]);
    expect(takeBackShares([5, 10], 8)).toEqual([5, 3]);
    expect(takeBackShares([5, 10], 0)).toEqual([0, 0]);
  });

  it('never takes more than was earned nor more than is available (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 30 }), fc.integer({ min: -10, max: 40_000_000 }), (earned, available) => {
        const shares = takeBackShares(earned, available);
        const total = shares.reduce((a, b) => a + b, 0);
        expect(total).toBe(
          Math.min(
            Math.max(available, 0),
            earned.reduce((a, b) => a + b, 0),
          ),
        );
        shares.forEach((s, i) => {
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(earned[i] ?? 0);
        });
      }),
    );
  });
});

describe('planChange: a spend naming buckets `first`', () => {
  const bucket = (id: string, points: number, expiresAt: string | null): PointsBucket => ({
    id,
    projectId: 'p',
    campaignId: 'c',
    voucherId: 'v',
    points,
    status: 'ACTIVE',
    expiresAt,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  const card = (balance: number): LoyaltyCard => ({ points: balance, balance, expiredPoints: 0, subtractedPoints: 0, bucketedPoints: balance }) as LoyaltyCard;

  it('takes from the named bucket before the soonest-expiring ones', () => {
    const buckets = [bucket('soon', 10, '2026-03-01'), bucket('order', 5, '2027-01-01')];
    const plan = planChange({ card: card(15), buckets }, { kind: 'spend', points: 7, first: ['order'] }, '2026-02-01');
    expect(plan.updates.map((u) => [u.bucket.id, u.points, u.status])).toEqual([
      ['order', 0, 'USED'],
      ['soon', 8, 'ACTIVE'],
    ]);
    expect(plan.card.balance).toBe(8);
  });
});
