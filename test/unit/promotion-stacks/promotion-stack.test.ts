import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { misnamedTier, type PromotionStack, sortStacks, withinDates } from '../../../lib/promotion-stacks/promotion-stack.js';

const stackAt = (id: string, createdAt: string, name = id, updatedAt: string | null = null): PromotionStack => ({
  id,
  campaignId: 'camp_1',
  name,
  tierIds: ['promo_1'],
  hierarchyMode: 'MANUAL',
  categoryId: null,
  createdAt,
  updatedAt,
  revision: 0,
});

describe('misnamedTier', () => {
  it('names the first tier the campaign lacks, then a repeat, and passes a list of the campaign’s tiers each once', () => {
    const own = new Set(['a', 'b', 'c']);
    expect(misnamedTier(['a', 'x', 'a'], own)).toEqual({ id: 'x', why: 'missing' });
    expect(misnamedTier(['a', 'b', 'a'], own)).toEqual({ id: 'a', why: 'repeated' });
    expect(misnamedTier(['c', 'a'], own)).toBeNull();
  });

  it('accepts exactly the lists of distinct ids of the campaign', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 8 }),
        fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 8 }),
        (own, ids) => {
          const ok = ids.every((id) => own.includes(id)) && new Set(ids).size === ids.length;
          expect(misnamedTier(ids, new Set(own)) === null).toBe(ok);
        },
      ),
    );
  });
});

describe('sortStacks', () => {
  const dates = fc.integer({ min: 0, max: 10_000 }).map((n) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString());
  const stacks = fc.uniqueArray(fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), createdAt: dates, name: fc.string({ maxLength: 6 }) }), {
    selector: (s) => s.id,
    maxLength: 20,
  });

  it('orders by the field asked, newest first with a minus, ties by id, and the reverse order is the reverse list', () => {
    fc.assert(
      fc.property(stacks, fc.constantFrom('created_at', 'updated_at', 'name') as fc.Arbitrary<'created_at' | 'updated_at' | 'name'>, (raw, field) => {
        const list = raw.map((s) => stackAt(s.id, s.createdAt, s.name));
        const up = sortStacks(list, field);
        const down = sortStacks(list, `-${field}`);
        expect(down).toEqual([...up].reverse());
        const key = (s: PromotionStack) => (field === 'name' ? s.name : s.createdAt);
        for (let i = 1; i < up.length; i++) expect(key(up[i - 1] as PromotionStack) <= key(up[i] as PromotionStack)).toBe(true);
      }),
    );
  });

  it('counts a stack never changed by its creation when ordering by last change', () => {
    const old = stackAt('s1', '2026-01-01T00:00:00.000Z', 's1', '2026-03-01T00:00:00.000Z');
    const fresh = stackAt('s2', '2026-02-01T00:00:00.000Z');
    expect(sortStacks([old, fresh], 'updated_at').map((s) => s.id)).toEqual(['s2', 's1']);
  });
});

describe('withinDates', () => {
  it('keeps a stack strictly inside the bounds sent, by creation and by last change', () => {
    const s = stackAt('s1', '2026-01-10T00:00:00.000Z', 's1', '2026-01-20T00:00:00.000Z');
    expect(withinDates(s, { after: '2026-01-09T00:00:00.000Z', before: '2026-01-11T00:00:00.000Z' }, undefined)).toBe(true);
    expect(withinDates(s, { before: '2026-01-10T00:00:00.000Z' }, undefined)).toBe(false);
    expect(withinDates(s, undefined, { after: '2026-01-20T00:00:00.000Z' })).toBe(false);
    expect(withinDates(s, undefined, { before: '2026-01-21T00:00:00.000Z' })).toBe(true);
  });
});
