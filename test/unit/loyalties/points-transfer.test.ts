import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planChange } from '../../../lib/loyalties/loyalty-card.js';
import type { PointsBucket } from '../../../lib/loyalties/points-bucket.js';
import { mergeTaken, takenByExpiry } from '../../../lib/loyalties/points-transfer.js';
import type { LoyaltyCard } from '../../../lib/vouchers/voucher.js';

const today = '2026-02-10';
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
const cardOf = (buckets: PointsBucket[], loose: number): LoyaltyCard => {
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
};

describe('takenByExpiry', () => {
  it('gives the points a spend took by expiry date, soonest first, the bucket-less rest as never expiring, and never an expired bucket', () => {
    const dates = ['2026-01-31', '2026-03-31', '2026-06-30', null] as const;
    fc.assert(
      fc.property(
        fc.array(fc.record({ points: fc.integer({ min: 1, max: 50 }), date: fc.constantFrom(...dates) }), { maxLength: 8 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 400 }),
        (rows, loose, wanted) => {
          const buckets = rows.map((r, i) => bucket(i, r.points, r.date));
          const card = cardOf(buckets, loose);
          const spendable = card.balance - buckets.filter((b) => b.expiresAt !== null && b.expiresAt < today).reduce((s, b) => s + b.points, 0);
          fc.pre(wanted <= spendable);
          const plan = planChange({ card, buckets }, { kind: 'spend', points: wanted }, today);
          const taken = takenByExpiry(wanted, plan.updates);
          expect(taken.reduce((s, t) => s + t.points, 0)).toBe(wanted);
          expect(taken.every((t) => t.expiresAt === null || t.expiresAt >= today)).toBe(true);
          const order = taken.map((t) => t.expiresAt ?? '9999-12-31');
          expect(order).toEqual([...order].sort());
          expect(new Set(order).size).toBe(order.length);
        },
      ),
    );
  });

  it('merges several sources into one bucket per date', () => {
    expect(
      mergeTaken([
        [
          { expiresAt: '2026-03-31', points: 2 },
          { expiresAt: null, points: 1 },
        ],
        [{ expiresAt: '2026-03-31', points: 5 }],
      ]),
    ).toEqual([
      { expiresAt: '2026-03-31', points: 7 },
      { expiresAt: null, points: 1 },
    ]);
  });
});
