import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Candidate, candidatesToExamine, cutPage, isItemLevel, matchesFilters, sortPage } from '../../../lib/qualifications/qualification-page.js';

const candidate = (id: string, createdAt: string, fields: Partial<Candidate> = {}): Candidate => ({
  object: 'voucher',
  id,
  createdAt,
  campaignId: null,
  campaignType: null,
  voucherType: 'DISCOUNT_VOUCHER',
  categoryIds: [],
  source: 'wallet',
  itemLevel: false,
  ...fields,
});
const t = (n: number) => new Date(Date.UTC(2026, 0, 1) + n).toISOString();

describe('qualification paging', () => {
  it('walks every qualified redeemable exactly once, newest first, whatever the ties and the limit', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 80 }), fc.integer({ min: 1, max: 50 }), (times, limit) => {
        const all = times.map((n, i) => candidate(`C${String(i).padStart(3, '0')}`, t(n)));
        const expected = candidatesToExamine(all, 'ALL', undefined, null).map((c) => c.id);
        const seen: string[] = [];
        let cursor: string | null = null;
        for (let guard = 0; guard < 200; guard += 1) {
          const { page, hasMore }: { page: Candidate[]; hasMore: boolean } = cutPage(candidatesToExamine(all, 'ALL', undefined, cursor), limit);
          expect(page.length).toBeLessThanOrEqual(limit);
          seen.push(...page.map((c) => c.id));
          if (!hasMore) break;
          cursor = page[page.length - 1]?.createdAt ?? null;
        }
        // Only a millisecond holding more than `limit` redeemables can lose some (the cursor is a time).
        const crowded = new Set(times.filter((n) => times.filter((m) => m === n).length > limit));
        if (crowded.size === 0) expect(seen).toEqual(expected);
        else expect(new Set(seen).size).toBe(seen.length);
      }),
    );
  });

  it('keeps a wallet voucher over the same code found as a public one, and drops what the scenario excludes', () => {
    const all = [
      candidate('SAME', t(1), { source: 'public' }),
      candidate('SAME', t(1), { source: 'wallet' }),
      candidate('TIER', t(2), { object: 'promotion_tier', source: 'tier', itemLevel: true }),
    ];
    expect(candidatesToExamine(all, 'ALL', undefined, null).map((c) => [c.id, c.source])).toEqual([
      ['TIER', 'tier'],
      ['SAME', 'wallet'],
    ]);
    expect(candidatesToExamine(all, 'CUSTOMER_WALLET', undefined, null).map((c) => c.id)).toEqual(['SAME']);
    expect(candidatesToExamine(all, 'PRODUCTS', undefined, null).map((c) => c.id)).toEqual(['TIER']);
    expect(candidatesToExamine(all, 'ALL', undefined, t(2)).map((c) => c.id)).toEqual(['SAME']);
  });

  it('applies filters with and/or junctions, value-less operators and the holder role', () => {
    const c = candidate('A', t(1), { campaignId: 'camp_1', categoryIds: [] });
    const campaign = (conditions: Record<string, unknown>) => ({ campaign_id: { conditions } });
    expect(matchesFilters(c, campaign({ $in: ['camp_1'] }))).toBe(true);
    expect(matchesFilters(c, campaign({ $in: [] }))).toBe(false);
    expect(matchesFilters(c, campaign({ $not_in: [] }))).toBe(true);
    expect(matchesFilters(c, { category_id: { conditions: { $is_unknown: '' } } })).toBe(true);
    expect(matchesFilters(c, { category_id: { conditions: { $has_value: '' } } })).toBe(false);
    expect(matchesFilters(c, { junction: 'or', category_id: { conditions: { $has_value: '' } }, ...campaign({ $is: ['camp_1'] }) })).toBe(true);
    expect(matchesFilters(c, { holder_role: { conditions: { $in: ['OWNER'] } } })).toBe(true);
    expect(matchesFilters({ ...c, source: 'public' }, { holder_role: { conditions: { $in: ['OWNER'] } } })).toBe(false);
  });

  it('sorts a page by the discount for BEST_DEAL and LEAST_DEAL, newest first among equals', () => {
    const page = [
      { id: 'a', createdAt: t(3), appliedDiscount: 100 },
      { id: 'b', createdAt: t(2), appliedDiscount: 500 },
      { id: 'c', createdAt: t(1), appliedDiscount: 100 },
    ];
    expect(sortPage(page, 'DEFAULT').map((p) => p.id)).toEqual(['a', 'b', 'c']);
    expect(sortPage(page, 'BEST_DEAL').map((p) => p.id)).toEqual(['b', 'a', 'c']);
    expect(sortPage(page, 'LEAST_DEAL').map((p) => p.id)).toEqual(['a', 'c', 'b']);
  });

  it('calls a discount item-level when it applies to items or adds them', () => {
    expect(isItemLevel({ type: 'AMOUNT', amountOff: 1, effect: 'APPLY_TO_ITEMS' })).toBe(true);
    expect(isItemLevel({ type: 'UNIT', unitOff: 1, unitType: 'prod_1', effect: 'ADD_NEW_ITEMS' })).toBe(true);
    expect(isItemLevel({ type: 'AMOUNT', amountOff: 1 })).toBe(false);
    expect(isItemLevel(null)).toBe(false);
  });
});
