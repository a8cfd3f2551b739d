import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activationDateOf, invalidPendingPointsState, isDue } from '../../../lib/loyalties/pending-points.js';
import { planChange } from '../../../lib/loyalties/loyalty-card.js';
import type { LoyaltyCard } from '../../../lib/vouchers/voucher.js';

describe('pending points', () => {
  it('activates period_value calendar days (UTC) after the order was paid, whatever the hour', () => {
    expect(activationDateOf(new Date('2026-02-10T23:59:59.999Z'), 1)).toBe('2026-02-11');
    expect(activationDateOf(new Date('2026-02-28T00:00:00.000Z'), 1)).toBe('2026-03-01');
    expect(activationDateOf(new Date('2026-12-31T12:00:00.000Z'), 90)).toBe('2027-03-31');
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2040, 0, 1) }), fc.integer({ min: 1, max: 90 }), (ms, days) => {
        const date = activationDateOf(new Date(ms), days);
        const start = Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), new Date(ms).getUTCDate());
        expect(Date.parse(`${date}T00:00:00.000Z`) - start).toBe(days * 86_400_000);
      }),
    );
  });

  it('is due on its activation date and after, only while PENDING', () => {
    expect(isDue({ activatesAt: '2026-02-11', status: 'PENDING' }, '2026-02-10')).toBe(false);
    expect(isDue({ activatesAt: '2026-02-11', status: 'PENDING' }, '2026-02-11')).toBe(true);
    expect(isDue({ activatesAt: '2026-02-11', status: 'ACTIVATED' }, '2026-02-12')).toBe(false);
  });

  it("refuses an entry no longer PENDING in the reference's words", () => {
    const error = invalidPendingPointsState('canceled', 'ACTIVATED');
    expect({ status: error.status, key: error.key, details: error.details }).toEqual({
      status: 400,
      key: 'invalid_pending_points_state',
      details: "Only pending points in 'PENDING' status can be canceled. Current status: 'ACTIVATED'.",
    });
  });

  it("moves the card's pending points with a change, leaving its balance alone unless points are added", () => {
    const card: LoyaltyCard = {
      points: 5,
      balance: 5,
      expiredPoints: 0,
      subtractedPoints: 0,
      pendingPoints: 10,
      nextExpirationDate: null,
      nextExpirationPoints: null,
      bucketedPoints: 0,
      revision: 3,
    };
    const held = planChange({ card, buckets: [] }, { kind: 'none', pending: 7 }, '2026-02-10');
    expect(held.card).toMatchObject({ balance: 5, pendingPoints: 17, revision: 4 });
    const released = planChange({ card, buckets: [] }, { kind: 'none', pending: -10 }, '2026-02-10');
    expect(released.card).toMatchObject({ balance: 5, pendingPoints: 0 });
  });
});
