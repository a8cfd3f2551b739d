import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_SUMMARY_FIELDS,
  CAMPAIGN_SUMMARY_SHARDS,
  movedFields,
  pickSummaryShard,
  redemptionSummaryDeltas,
  sumSummaries,
  summaryDay,
} from '../../../lib/campaigns/campaign-summary.js';

describe('campaign summary counters (pure)', () => {
  it('counts an instant on its UTC day', () => {
    expect(summaryDay('2026-07-01T23:59:59.999Z')).toBe('2026-07-01');
    expect(summaryDay('2026-07-02T00:30:00+02:00')).toBe('2026-07-01');
  });

  it('always picks a shard in 0 … CAMPAIGN_SUMMARY_SHARDS − 1 (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (r) => {
        const shard = pickSummaryShard(() => r);
        expect(Number.isInteger(shard) && shard >= 0 && shard < CAMPAIGN_SUMMARY_SHARDS).toBe(true);
      }),
    );
  });

  it('moves only non-zero fields, refuses fractions, and sums items into totals with every field (property: sum of sums)', () => {
    expect(movedFields({ redemptions: 1, rollbacks: 0, ordersAmount: -5 })).toEqual([
      ['redemptions', 1],
      ['ordersAmount', -5],
    ]);
    expect(() => movedFields({ pointsAdded: 0.5 })).toThrow(/integer/);
    const delta = fc.dictionary(fc.constantFrom(...CAMPAIGN_SUMMARY_FIELDS), fc.integer({ min: -1000, max: 1000 }));
    fc.assert(
      fc.property(fc.array(delta, { maxLength: 20 }), fc.array(delta, { maxLength: 20 }), (a, b) => {
        const all = sumSummaries([...a, ...b]);
        const parts = [sumSummaries(a), sumSummaries(b)];
        for (const f of CAMPAIGN_SUMMARY_FIELDS) expect(all[f]).toBe((parts[0]?.[f] ?? 0) + (parts[1]?.[f] ?? 0));
        expect(Object.keys(all).sort()).toEqual([...CAMPAIGN_SUMMARY_FIELDS].sort());
      }),
    );
  });

  it('counts a redemption per redeemable, the order once per campaign, discounts apart from gift credits, and nothing for no campaign', () => {
    const r = (campaignId: string | null, over: Partial<{ giftCredits: number; loyaltyPoints: number; discount: number }> = {}) => ({
      campaignId,
      giftCredits: 0,
      loyaltyPoints: 0,
      discount: 0,
      orderAmount: 4000,
      ...over,
    });
    const deltas = redemptionSummaryDeltas('redemption', [
      r('camp_a', { discount: 500 }),
      r('camp_a', { discount: 250.4 }),
      r('camp_g', { giftCredits: 700, discount: 700 }),
      r(null, { discount: 9 }),
    ]);
    expect([...deltas.keys()]).toEqual(['camp_a', 'camp_g']);
    expect(deltas.get('camp_a')).toEqual({
      redemptions: 2,
      redemptionsSucceeded: 2,
      ordersAmount: 4000,
      discountedAmount: 750,
      amountRedeemed: 0,
      pointsRedeemed: 0,
    });
    expect(deltas.get('camp_g')).toMatchObject({ redemptions: 1, ordersAmount: 4000, discountedAmount: 0, amountRedeemed: 700 });
    expect(redemptionSummaryDeltas('rollback', [r('camp_l', { loyaltyPoints: 30, discount: 100 })]).get('camp_l')).toEqual({
      rollbacks: 1,
      rollbacksSucceeded: 1,
      ordersRolledbackAmount: 4000,
      rolledbackDiscountedAmount: 100,
      amountRolledback: 0,
      pointsRolledback: 30,
    });
  });

  it('always gives integer deltas that movedFields accepts, whatever the amounts (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            campaignId: fc.constantFrom('a', 'b', null),
            giftCredits: fc.nat(),
            loyaltyPoints: fc.nat(),
            discount: fc.double({ min: 0, max: 1e6, noNaN: true }),
            orderAmount: fc.double({ min: 0, max: 1e6, noNaN: true }),
          }),
        ),
        fc.constantFrom('redemption' as const, 'rollback' as const),
        (rs, kind) => {
          for (const d of redemptionSummaryDeltas(kind, rs).values()) expect(() => movedFields(d)).not.toThrow();
        },
      ),
    );
  });
});
