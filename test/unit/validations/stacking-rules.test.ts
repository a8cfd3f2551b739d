import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STACKING_RULES, decideStacking, isValid, type StackingCandidate, type StackingRules } from '../../../lib/validations/stacking-rules.js';

const ok = (...categoryIds: string[]): StackingCandidate => ({ categoryIds, failure: null });
const bad: StackingCandidate = { categoryIds: [], failure: 'resource_not_found' };
const rules = (over: Partial<StackingRules> = {}): StackingRules => ({ ...DEFAULT_STACKING_RULES, ...over });
const keys = (candidates: StackingCandidate[], r = rules()) => decideStacking(candidates, r).map((o) => ('key' in o ? o.key : o.status));

describe('stacking rules', () => {
  it('has the reference’s defaults', () => {
    expect(DEFAULT_STACKING_RULES).toMatchObject({
      redeemablesLimit: 30,
      applicableRedeemablesLimit: 5,
      applicableExclusiveRedeemablesLimit: 1,
      applicableRedeemablesPerCategoryLimit: 1,
      redeemablesApplicationMode: 'ALL',
      redeemablesSortingRule: 'REQUESTED_ORDER',
    });
  });

  it('skips beyond the applicable limit', () => {
    expect(keys([ok(), ok(), ok()], rules({ applicableRedeemablesLimit: 2 }))).toEqual(['APPLICABLE', 'APPLICABLE', 'applicable_redeemables_limit_exceeded']);
  });

  it('skips beyond a category’s limit, the per-category override winning', () => {
    expect(keys([ok('a'), ok('a'), ok('b')])).toEqual(['APPLICABLE', 'applicable_redeemables_per_category_limit_exceeded', 'APPLICABLE']);
    expect(keys([ok('a'), ok('a'), ok('a')], rules({ applicableRedeemablesCategoryLimits: { a: 2 } }))).toEqual([
      'APPLICABLE',
      'APPLICABLE',
      'applicable_redeemables_per_category_limit_exceeded',
    ]);
  });

  it('lets an exclusive redeemable exclude non-joint ones wherever they stand, and limits exclusive ones', () => {
    const r = rules({ exclusiveCategories: ['x'], jointCategories: ['j'], applicableRedeemablesPerCategoryLimit: 5 });
    expect(keys([ok(), ok('x'), ok('j'), ok('x')], r)).toEqual([
      'exclusion_rules_not_met',
      'APPLICABLE',
      'APPLICABLE',
      'applicable_exclusive_redeemables_limit_exceeded',
    ]);
  });

  it('in ALL mode skips everything after the first inapplicable one; PARTIAL goes on', () => {
    expect(keys([ok(), bad, ok()])).toEqual(['APPLICABLE', 'resource_not_found', 'preceding_validation_failed']);
    expect(keys([ok(), bad, ok()], rules({ redeemablesApplicationMode: 'PARTIAL' }))).toEqual(['APPLICABLE', 'resource_not_found', 'APPLICABLE']);
  });

  it('is valid in ALL mode only without inapplicable ones, in PARTIAL with any applicable one', () => {
    expect(isValid(decideStacking([ok(), bad], rules()), 'ALL')).toBe(false);
    expect(isValid(decideStacking([ok(), ok()], rules({ applicableRedeemablesLimit: 1 })), 'ALL')).toBe(true);
    expect(isValid(decideStacking([bad, ok()], rules({ redeemablesApplicationMode: 'PARTIAL' })), 'PARTIAL')).toBe(true);
    expect(isValid(decideStacking([bad], rules({ redeemablesApplicationMode: 'PARTIAL' })), 'PARTIAL')).toBe(false);
  });

  it('property: never more applicable than the limits allow, and every invalid one INAPPLICABLE or skipped', () => {
    const candidate = fc.record({
      categoryIds: fc.array(fc.constantFrom('a', 'b', 'x', 'j'), { maxLength: 2 }),
      failure: fc.constantFrom(null, null, 'quantity_exceeded' as const),
    });
    fc.assert(
      fc.property(
        fc.array(candidate, { maxLength: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom('ALL' as const, 'PARTIAL' as const),
        (cs, limit, perCat, mode) => {
          const r = rules({
            applicableRedeemablesLimit: limit,
            applicableRedeemablesPerCategoryLimit: perCat,
            exclusiveCategories: ['x'],
            jointCategories: ['j'],
            redeemablesApplicationMode: mode,
          });
          const out = decideStacking(cs, r);
          expect(out).toHaveLength(cs.length);
          const applicable = cs.filter((_, i) => out[i]?.status === 'APPLICABLE');
          expect(applicable.length).toBeLessThanOrEqual(limit);
          expect(applicable.every((c) => c.failure === null)).toBe(true);
          for (const cat of ['a', 'b', 'x', 'j'] as const) expect(applicable.filter((c) => c.categoryIds.includes(cat)).length).toBeLessThanOrEqual(perCat);
          expect(applicable.filter((c) => c.categoryIds.includes('x')).length).toBeLessThanOrEqual(1);
          expect(decideStacking(cs, r)).toEqual(out);
        },
      ),
    );
  });
});
