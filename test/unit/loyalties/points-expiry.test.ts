import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planChange } from '../../../lib/loyalties/loyalty-card.js';
import type { PointsBucket } from '../../../lib/loyalties/points-bucket.js';
import { expirationTransaction, isPastDue, planCardWriteOff, planWriteOff } from '../../../lib/loyalties/points-expiry.js';
import type { LoyaltyCard } from '../../../lib/vouchers/voucher.js';

const today = '2026-02-10';
const dates = ['2026-01-01', '2026-01-31', '2026-02-09', '2026-02-10', '2026-03-31', '2026-06-30', null] as const;

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
    revision: 3,
  };
}

const bucketsArb = fc
  .array(fc.record({ points: fc.integer({ min: 1, max: 500 }), date: fc.constantFrom(...dates) }), { minLength: 1, maxLength: 12 })
  .map((rows) => rows.map((r, i) => bucket(i, r.points, r.date)));

describe('planWriteOff', () => {
  it('moves exactly the bucket to expired_points, keeps the lifetime points, and agrees with expiring every past-due bucket one by one', () => {
    fc.assert(
      fc.property(bucketsArb, fc.integer({ min: 0, max: 100 }), (buckets, loose) => {
        const due = buckets.filter((b) => isPastDue(b, today));
        let card = cardOf(buckets, loose);
        for (const b of due) {
          const plan = planWriteOff(card, b, buckets, today);
          expect(plan.updates).toEqual([{ bucket: b, points: b.points, status: 'EXPIRED' }]);
          expect(plan.card.balance).toBe(card.balance - b.points);
          expect(plan.card.expiredPoints).toBe(card.expiredPoints + b.points);
          expect(plan.card.points).toBe(card.points);
          expect(plan.card.revision).toBe((card.revision ?? 0) + 1);
          card = plan.card;
        }
        // The same end as the planner's own lazy expiry of all of them at once (counters and next expiration).
        const all = planChange({ card: cardOf(buckets, loose), buckets }, { kind: 'none' }, today).card;
        if (due.length > 0) expect({ ...card, revision: 0 }).toEqual({ ...all, revision: 0 });
      }),
    );
  });

  it('refuses a bucket that is not past due (its last day is today or later) or holds nothing', () => {
    const todayBucket = bucket(1, 5, today);
    expect(() => planWriteOff(cardOf([todayBucket], 0), todayBucket, [], today)).toThrow(/not due/);
    const spent = { ...bucket(2, 5, '2026-01-01'), status: 'USED' as const };
    expect(() => planWriteOff(cardOf([], 0), spent, [], today)).toThrow(/not due/);
  });

  it('records the write-off as POINTS_EXPIRATION with the points taken and the counters after', () => {
    const b = bucket(1, 7, '2026-01-31');
    const plan = planWriteOff(cardOf([b, bucket(2, 3, '2026-03-31')], 4), b, [bucket(2, 3, '2026-03-31')], today);
    expect(plan.card).toMatchObject({ balance: 7, expiredPoints: 7, nextExpirationDate: '2026-03-31', nextExpirationPoints: 3 });
    expect(expirationTransaction('vtx_1', b, plan.card, '2026-02-10T00:00:00.000Z')).toMatchObject({
      type: 'POINTS_EXPIRATION',
      points: -7,
      total: 14,
      balance: 7,
      voucherId: 'v',
      source: null,
    });
  });
});

describe('planCardWriteOff', () => {
  it('gives one change equal to writing the buckets off one transaction at a time: the end card, every update, each record after its own bucket', () => {
    fc.assert(
      fc.property(bucketsArb, fc.integer({ min: 0, max: 100 }), (buckets, loose) => {
        const due = buckets.filter((b) => isPastDue(b, today));
        // Ids in descending order: the plan must still hand them out ascending, in write-off order.
        let n = 1000;
        const newId = () => `vtx_${(n -= 1)}`;
        const { plan, records } = planCardWriteOff(cardOf(buckets, loose), due, buckets, today, 'T', newId);
        let card = cardOf(buckets, loose);
        let others: PointsBucket[] = buckets;
        const expected = due.map((b, i) => {
          const one = planWriteOff(card, b, others, today);
          card = one.card;
          others = others.filter((o) => o.id !== b.id);
          return { update: one.updates[0], record: expirationTransaction(`vtx_${1000 - due.length + i}`, b, one.card, 'T') };
        });
        expect(plan.card).toEqual(card);
        expect(plan.updates).toEqual(expected.map((e) => e.update));
        expect(records).toEqual(expected.map((e) => e.record));
        expect(plan.expired).toBe(due.reduce((s, b) => s + b.points, 0));
      }),
    );
  });
});
