import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedCampaignAdd } from '../../../lib/redemptions/redemption.repo.js';
import { compileRuleSet, countRange, evaluateValidationRules, type RuleContext, type WireRules } from '../../../lib/validation-rules/rule-evaluation.js';
import type { ValidationRule } from '../../../lib/validation-rules/validation-rule.js';
import { bothBounds, EXACT_CAMPAIGN_SHARD, judgeRules } from '../../../lib/validations/redeemable-rules.js';

/*
 * Issue 41 item 7: the bound a redemption's commit holds a counter to, so that the verdict its
 * rules reached on the count read is still the verdict at commit (countRange), and how it becomes
 * the condition on the campaign's exact count shard.
 */

const ctx = (campaignRedemptions: number | null, over: Partial<RuleContext> = {}): RuleContext => ({
  order: { amount: 10_000, items: [], metadata: {} },
  customer: { id: 'cust_1', sourceId: 'alice', metadata: {} },
  counters: { customerRedemptionsOfRedeemable: 0, customerRedemptionsInCampaign: 0, campaignRedemptions },
  ...over,
});
const rules = (...sets: WireRules[]) => sets.map((wire, i) => ({ id: `val_${i}`, rules: compileRuleSet(wire), error: null }));
const campaignCount = (conditions: Record<string, number[]>) => ({ 1: { name: 'campaign.redemptions.count', conditions } });

describe('countRange (campaign.redemptions.count)', () => {
  it.each<[string, Record<string, number[]>, number, { min: number | null; max: number | null } | null]>([
    // The conditions see the count with this redemption (count + 1): `≤ 5` lets counts 0…4 before it through.
    ['≤ 5, none yet', { $less_than_or_equal: [5] }, 0, { min: null, max: 4 }],
    ['≤ 5, four before', { $less_than_or_equal: [5] }, 4, { min: null, max: 4 }],
    ['≤ 5, five before: refused', { $less_than_or_equal: [5] }, 5, null],
    ['< 6 is ≤ 5', { $less_than: [6] }, 2, { min: null, max: 4 }],
    ['< 5.5 is ≤ 5', { $less_than: [5.5] }, 2, { min: null, max: 4 }],
    ['> 3: a lower bound only', { $more_than: [3] }, 7, { min: 3, max: null }],
    ['≥ 3 and ≤ 5', { $more_than_or_equal: [3], $less_than_or_equal: [5] }, 3, { min: 2, max: 4 }],
    ['is 10: exactly the tenth', { $is: [10] }, 9, { min: 9, max: 9 }],
    ['in 2 or 3: the second and third', { $in: [2, 3] }, 1, { min: 1, max: 2 }],
    ['is not 3: every count but the third, from the first', { $is_not: [3] }, 0, { min: null, max: 1 }],
    ['is not 3: after it, unbounded', { $is_not: [3] }, 5, { min: 3, max: null }],
  ])('%s', (_name, conditions, read, expected) => {
    expect(countRange(rules(campaignCount(conditions)), ctx(read), 'campaignRedemptions')).toEqual(expected);
  });

  it('no condition on the counter: unbounded; an unknown count: null', () => {
    const r = rules({ 1: { name: 'order.amount', conditions: { $more_than: [100] } } });
    expect(countRange(r, ctx(3), 'campaignRedemptions')).toEqual({ min: null, max: null });
    expect(countRange(rules(campaignCount({ $less_than_or_equal: [5] })), ctx(null), 'campaignRedemptions')).toBeNull();
  });

  it('logic: `1 or 2` with the order condition holding leaves the count unbounded; failing, the count decides', () => {
    const wire: WireRules = {
      ...campaignCount({ $less_than_or_equal: [5] }),
      2: { name: 'order.amount', conditions: { $more_than: [5_000] } },
      logic: '1 or 2',
    };
    expect(countRange(rules(wire), ctx(40), 'campaignRedemptions')).toEqual({ min: null, max: null });
    const small = ctx(2, { order: { amount: 100, items: [], metadata: {} } });
    expect(countRange(rules(wire), small, 'campaignRedemptions')).toEqual({ min: null, max: 4 });
  });

  it('every rule of the redeemable counts (the campaign’s and its own): the tightest wins', () => {
    const r = rules(campaignCount({ $less_than_or_equal: [100] }), campaignCount({ $less_than_or_equal: [5] }));
    expect(countRange(r, ctx(1), 'campaignRedemptions')).toEqual({ min: null, max: 4 });
  });

  it('property: every count in the range passes, and the counts just outside it fail (the range is exact and the widest; counts are ≥ 0)', () => {
    const op = fc.constantFrom('$is', '$is_not', '$in', '$not_in', '$less_than', '$less_than_or_equal', '$more_than', '$more_than_or_equal');
    const value = fc.oneof(fc.integer({ min: 0, max: 12 }), fc.double({ min: 0, max: 12, noNaN: true }));
    const condition = fc
      .tuple(op, value, value)
      .map(([o, a, b]) => ({ name: 'campaign.redemptions.count', conditions: { [o]: ['$in', '$not_in'].includes(o) ? [a, b] : [a] } }));
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.integer({ min: 0, max: 14 }), (conds, or, read) => {
        const wire: WireRules = Object.fromEntries(conds.map((c, i) => [String(i + 1), c]));
        if (or) wire.logic = conds.map((_, i) => String(i + 1)).join(' or ');
        const r = rules(wire);
        const passes = (n: number) => evaluateValidationRules(r, ctx(n)).ok;
        const range = countRange(r, ctx(read), 'campaignRedemptions');
        if (!passes(read)) {
          expect(range).toBeNull();
          return;
        }
        if (range === null) throw new Error('a passing count has a range');
        for (let n = range.min ?? 0; n <= (range.max ?? 30); n += 1) expect(passes(n)).toBe(true);
        if (range.max !== null) expect(passes(range.max + 1)).toBe(false);
        if (range.min !== null) expect(range.min > 0 && !passes(range.min - 1)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the campaign bound of a redeemable (judgeRules) and its condition', () => {
  const input = (wire: WireRules, total: number, exact: number) => ({
    rules: rules(wire).map(
      (r): ValidationRule => ({
        ...r,
        name: 'r',
        applicableTo: { included: [], excluded: [], includedAll: false },
        type: 'basic',
        contextType: 'global',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: null,
      }),
    ),
    order: {
      id: null,
      sourceId: null,
      revision: null,
      status: 'CREATED' as const,
      amount: 1000,
      items: [],
      metadata: {},
      customerId: null,
      referrerId: null,
      createdAt: null,
    },
    customer: null,
    counts: {},
    campaignCount: { total, exact },
    ownId: 'v_1',
    campaignId: 'camp_1',
  });

  it('is the range less what the random shards hold: 3 counted on them before the rule, ≤ 5 leaves the exact shard ≤ 1', () => {
    const verdict = judgeRules(input(campaignCount({ $less_than_or_equal: [5] }), 3, 0));
    expect(verdict).toMatchObject({ ok: true, campaignBound: { campaignId: 'camp_1', min: null, max: 1 } });
  });

  it('is null where no rule bounds the campaign count (the redemption keeps a random shard)', () => {
    expect(judgeRules(input({ 1: { name: 'order.amount', conditions: { $more_than: [1] } } }, 3, 0))).toMatchObject({ ok: true, campaignBound: null });
    expect(judgeRules(input(campaignCount({ $more_than_or_equal: [0] }), 3, 0))).toMatchObject({ ok: true, campaignBound: null });
  });

  it('two redeemables of one campaign: both bounds hold', () => {
    expect(bothBounds({ campaignId: 'c', min: 1, max: null }, { campaignId: 'c', min: null, max: 4 })).toEqual({ campaignId: 'c', min: 1, max: 4 });
    expect(bothBounds({ campaignId: 'c', min: 1, max: 9 }, { campaignId: 'c', min: 2, max: 4 })).toEqual({ campaignId: 'c', min: 2, max: 4 });
  });

  it('the commit ADDs 1 to the exact shard on condition of the bound, a shard not written yet counting as 0', () => {
    const add = boundedCampaignAdd({ tableName: 't' }, 'proj_1', { campaignId: 'camp_1', min: null, max: 4 }).Update;
    expect(add?.Key).toMatchObject({ SK: String(EXACT_CAMPAIGN_SHARD) });
    expect(add?.ConditionExpression).toBe('(attribute_not_exists(#count) OR #count <= :max)');
    expect(add?.ExpressionAttributeValues).toMatchObject({ ':max': 4, ':delta': 1 });
    const both = boundedCampaignAdd({ tableName: 't' }, 'proj_1', { campaignId: 'camp_1', min: 2, max: 2 }).Update;
    expect(both?.ConditionExpression).toBe('(attribute_not_exists(#count) OR #count <= :max) AND #count >= :min');
  });
});
