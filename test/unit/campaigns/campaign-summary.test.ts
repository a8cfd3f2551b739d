import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_SUMMARY_FIELDS,
  CAMPAIGN_SUMMARY_SHARDS,
  movedFields,
  pickSummaryShard,
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
});
