import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidValidationRulesError } from '../../../lib/errors.js';
import {
  compileRuleSet,
  evaluateValidationRule,
  evaluateValidationRules,
  type RuleContext,
  type RuleOrderItem,
  ruleNeeds,
  ruleOrderItem,
  type WireRules,
} from '../../../lib/validation-rules/rule-evaluation.js';

const line = (over: Partial<RuleOrderItem>): RuleOrderItem => ({
  productId: null,
  productSourceId: null,
  skuId: null,
  skuSourceId: null,
  quantity: 1,
  price: 1000,
  amount: 1000,
  ...over,
});

const ctx = (over: Partial<RuleContext> = {}): RuleContext => ({
  order: { amount: 10_000, items: [], metadata: {} },
  customer: { id: 'cust_1', sourceId: 'alice', metadata: {} },
  counters: { customerRedemptionsOfRedeemable: 0, customerRedemptionsInCampaign: 0, campaignRedemptions: 0 },
  ...over,
});

const rule = (rules: WireRules, message?: string) => ({ rules: compileRuleSet(rules), error: message ? { message } : null });
const passes = (rules: WireRules, c: RuleContext) => evaluateValidationRule(rule(rules), c).ok;

describe('compileRuleSet', () => {
  it('defaults the logic to every condition joined by and', () => {
    const set = compileRuleSet({ 1: { name: 'order.amount', conditions: { $more_than: [100] } }, 2: { name: 'order.items.count', conditions: { $is: [2] } } });
    expect(set.logic).toBe('1 and 2');
  });

  it('accepts a rule set with no conditions (it always passes)', () => {
    const set = compileRuleSet({});
    expect(set).toEqual({ logic: '', conditions: {} });
    expect(evaluateValidationRule({ rules: set, error: null }, ctx()).ok).toBe(true);
  });

  it.each<[string, WireRules, string]>([
    [
      'an unknown name',
      { 1: { name: 'order.total_amount', conditions: { $is: [1] } } },
      'rules.1 (order.total_amount): condition order.total_amount is not supported',
    ],
    ['an unknown operator', { 1: { name: 'order.amount', conditions: { $count: [1] } } }, 'operator $count is not supported for order.amount'],
    ['a string for a number', { 1: { name: 'order.amount', conditions: { $more_than: ['10'] } } }, '$more_than takes numbers'],
    ['two values for $less_than', { 1: { name: 'order.amount', conditions: { $less_than: [1, 2] } } }, 'takes exactly one value'],
    ['no operator', { 1: { name: 'order.amount', conditions: {} } }, 'has no operator'],
    ['metadata without property', { 1: { name: 'order.metadata', conditions: { $is: ['x'] } } }, 'needs a property'],
    ['a property where none belongs', { 1: { name: 'order.amount', property: 'x', conditions: { $is: [1] } } }, 'takes no property'],
    [
      'a gap in the numbers',
      { 1: { name: 'order.amount', conditions: { $is: [1] } }, 3: { name: 'order.amount', conditions: { $is: [1] } } },
      'numbered 1 to 2',
    ],
    ['logic naming a missing condition', { 1: { name: 'order.amount', conditions: { $is: [1] } }, logic: '1 and 2' }, 'condition 2, which is not defined'],
    [
      'a condition left out of the logic',
      { 1: { name: 'order.amount', conditions: { $is: [1] } }, 2: { name: 'order.amount', conditions: { $is: [1] } }, logic: '1' },
      'condition 2 is not in the logic',
    ],
    ['malformed logic', { 1: { name: 'order.amount', conditions: { $is: [1] } }, logic: '(1 and' }, 'logic: expected'],
    [
      'a collection without an id',
      { 1: { name: 'order.items.any', conditions: { $is: [{ source_id: 'pc_1', object: 'products_collection' }] } } },
      'each collection an id',
    ],
    ['an item target that names nothing', { 1: { name: 'order.items.any', conditions: { $is: [{ object: 'product' }] } } }, 'needs an id or a source_id'],
    [
      'an unsupported sub-condition',
      {
        1: {
          name: 'order.items.any',
          conditions: { $is: [{ id: 'p1', object: 'product' }] },
          rules: { 1: { name: 'order.items.metadata', conditions: { $is: [1] } } },
        },
      },
      'rules.1.rules.1 (order.items.metadata): condition order.items.metadata is not supported under order.items',
    ],
    [
      'sub-conditions under a scalar',
      { 1: { name: 'order.amount', conditions: { $is: [1] }, rules: { 1: { name: 'order.amount', conditions: { $is: [1] } } } } },
      'takes no sub-conditions',
    ],
    ['$after with no date', { 1: { name: 'customer.metadata', property: 'since', conditions: { $after: ['soon'] } } }, 'ISO 8601'],
  ])('refuses %s with invalid_validation_rules naming the condition', (_label, wire, details) => {
    expect(() => compileRuleSet(wire)).toThrow(InvalidValidationRulesError);
    try {
      compileRuleSet(wire);
    } catch (error) {
      expect((error as InvalidValidationRulesError).details).toContain(details);
    }
  });
});

describe('evaluateValidationRule: each supported condition passes and fails', () => {
  it('order.amount', () => {
    const r = { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [5000] } } };
    expect(passes(r, ctx())).toBe(true);
    expect(passes(r, ctx({ order: { amount: 4999, items: [], metadata: {} } }))).toBe(false);
    expect(passes(r, ctx({ order: null }))).toBe(false);
  });

  it('order.items.count counts lines', () => {
    const r = { 1: { name: 'order.items.count', conditions: { $more_than: [1] } } };
    expect(passes(r, ctx({ order: { amount: 1, items: [line({}), line({})], metadata: {} } }))).toBe(true);
    expect(passes(r, ctx({ order: { amount: 1, items: [line({ quantity: 5 })], metadata: {} } }))).toBe(false);
  });

  it('order.metadata and customer.metadata, by property, with $in, $starts_with and dates', () => {
    const r = { 1: { name: 'order.metadata', property: 'location', conditions: { $in: ['Santorini', 'Crete'] } } };
    expect(passes(r, ctx({ order: { amount: 1, items: [], metadata: { location: 'Crete' } } }))).toBe(true);
    expect(passes(r, ctx({ order: { amount: 1, items: [], metadata: { location: 'Rhodes' } } }))).toBe(false);
    expect(passes(r, ctx())).toBe(false);
    const c = { 1: { name: 'customer.metadata', property: 'tier', conditions: { $starts_with: ['gold'] } } };
    expect(passes(c, ctx({ customer: { id: 'c', sourceId: null, metadata: { tier: 'gold-plus' } } }))).toBe(true);
    expect(passes(c, ctx({ customer: { id: 'c', sourceId: null, metadata: { tier: 'silver' } } }))).toBe(false);
    expect(passes(c, ctx({ customer: null }))).toBe(false);
    const d = { 1: { name: 'customer.metadata', property: 'since', conditions: { $before: ['2024-01-01T00:00:00Z'] } } };
    expect(passes(d, ctx({ customer: { id: 'c', sourceId: null, metadata: { since: '2023-05-01' } } }))).toBe(true);
    expect(passes(d, ctx({ customer: { id: 'c', sourceId: null, metadata: { since: '2024-05-01' } } }))).toBe(false);
    const n = { 1: { name: 'order.metadata', property: 'weight', conditions: { $less_than: [10] } } };
    expect(passes(n, ctx({ order: { amount: 1, items: [], metadata: { weight: 9 } } }))).toBe(true);
    expect(passes(n, ctx({ order: { amount: 1, items: [], metadata: { weight: '9' } } }))).toBe(false);
  });

  it('does not read inherited properties as metadata', () => {
    const r = { 1: { name: 'order.metadata', property: 'constructor', conditions: { $is_not: ['x'] } } };
    const s = { 1: { name: 'order.metadata', property: 'toString', conditions: { $starts_with: ['f'] } } };
    expect(passes(r, ctx())).toBe(true);
    expect(passes(s, ctx())).toBe(false);
  });

  it('customer.segment: the customer is a member of a listed segment (its segmentIds)', () => {
    const r = { 1: { name: 'customer.segment', conditions: { $in: ['seg_a', 'seg_b'] } } };
    expect(passes(r, ctx())).toBe(false);
    expect(passes(r, ctx({ customer: { id: 'cust_9', sourceId: null, metadata: {}, segmentIds: ['seg_b'] } }))).toBe(true);
    expect(passes(r, ctx({ customer: { id: 'seg_a', sourceId: 'seg_b', metadata: {}, segmentIds: ['seg_c'] } }))).toBe(false);
    expect(passes(r, ctx({ customer: null }))).toBe(false);
    const is = { 1: { name: 'customer.segment', conditions: { $is: ['seg_a'] } } };
    expect(passes(is, ctx({ customer: { id: 'c', sourceId: null, metadata: {}, segmentIds: ['seg_x', 'seg_a'] } }))).toBe(true);
    const not = { 1: { name: 'customer.segment', conditions: { $not_in: ['seg_a'] } } };
    expect(passes(not, ctx())).toBe(true);
    expect(passes(not, ctx({ customer: { id: 'c', sourceId: null, metadata: {}, segmentIds: ['seg_a'] } }))).toBe(false);
  });

  it('redemption counters count the redemption being checked', () => {
    const once = { 1: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [1] } } };
    expect(passes(once, ctx())).toBe(true);
    expect(passes(once, ctx({ counters: { customerRedemptionsOfRedeemable: 1, customerRedemptionsInCampaign: 1, campaignRedemptions: 1 } }))).toBe(false);
    expect(passes(once, ctx({ counters: { customerRedemptionsOfRedeemable: null, customerRedemptionsInCampaign: 0, campaignRedemptions: 0 } }))).toBe(false);
    const perCampaign = { 1: { name: 'redemption.count.per_campaign', conditions: { $less_than: [3] } } };
    expect(passes(perCampaign, ctx({ counters: { customerRedemptionsOfRedeemable: 0, customerRedemptionsInCampaign: 1, campaignRedemptions: 0 } }))).toBe(true);
    expect(passes(perCampaign, ctx({ counters: { customerRedemptionsOfRedeemable: 0, customerRedemptionsInCampaign: 2, campaignRedemptions: 0 } }))).toBe(
      false,
    );
    const total = { 1: { name: 'campaign.redemptions.count', conditions: { $less_than_or_equal: [100] } } };
    expect(passes(total, ctx({ counters: { customerRedemptionsOfRedeemable: 0, customerRedemptionsInCampaign: 0, campaignRedemptions: 99 } }))).toBe(true);
    expect(passes(total, ctx({ counters: { customerRedemptionsOfRedeemable: 0, customerRedemptionsInCampaign: 0, campaignRedemptions: 100 } }))).toBe(false);
  });

  it('order.items.any with per-product quantity, price and aggregated amount', () => {
    const items = [
      line({ productId: 'prod_a', quantity: 2, price: 500, amount: 1000 }),
      line({ productId: 'prod_a', skuId: 'sku_a1', skuSourceId: 'A1', quantity: 1, price: 700, amount: 700 }),
      line({ productSourceId: 'shoe', quantity: 3, price: 100, amount: 300 }),
    ];
    const order = { amount: 2000, items, metadata: {} };
    const any = (sub: WireRules, target = { id: 'prod_a', object: 'product' as const }) => ({
      1: { name: 'order.items.any', conditions: { $is: [target] }, rules: sub },
    });
    expect(passes(any({}), ctx({ order }))).toBe(true);
    expect(passes(any({}, { id: 'prod_z', object: 'product' }), ctx({ order }))).toBe(false);
    expect(passes(any({ 1: { name: 'order.items.aggregated_amount', conditions: { $more_than_or_equal: [1700] } } }), ctx({ order }))).toBe(true);
    expect(passes(any({ 1: { name: 'order.items.aggregated_amount', conditions: { $more_than: [1700] } } }), ctx({ order }))).toBe(false);
    expect(passes(any({ 1: { name: 'order.items.aggregated_quantity', conditions: { $is: [3] } } }), ctx({ order }))).toBe(true);
    expect(passes(any({ 1: { name: 'order.items.quantity', conditions: { $more_than_or_equal: [2] } } }), ctx({ order }))).toBe(true);
    expect(passes(any({ 1: { name: 'order.items.quantity', conditions: { $more_than: [2] } } }), ctx({ order }))).toBe(false);
    expect(passes(any({ 1: { name: 'order.items.price', conditions: { $is: [700] } } }), ctx({ order }))).toBe(true);
    expect(passes(any({ 1: { name: 'order.items.price', conditions: { $is: [700] } } }, { id: 'sku_a1', object: 'sku' as never }), ctx({ order }))).toBe(true);
    expect(passes(any({ 1: { name: 'order.items.price', conditions: { $is: [500] } } }, { source_id: 'A1', object: 'sku' } as never), ctx({ order }))).toBe(
      false,
    );
    expect(
      passes(any({ 1: { name: 'order.items.quantity', conditions: { $is: [3] } } }, { source_id: 'shoe', object: 'product' } as never), ctx({ order })),
    ).toBe(true);
  });

  it('order.items.every needs each product; order.items.none needs none of them', () => {
    const order = { amount: 1, items: [line({ productId: 'p1' }), line({ productId: 'p2' })], metadata: {} };
    const every = (ids: string[]) => ({ 1: { name: 'order.items.every', conditions: { $in: ids.map((id) => ({ id, object: 'product' as const })) } } });
    const none = (ids: string[]) => ({ 1: { name: 'order.items.none', conditions: { $in: ids.map((id) => ({ id, object: 'product' as const })) } } });
    expect(passes(every(['p1', 'p2']), ctx({ order }))).toBe(true);
    expect(passes(every(['p1', 'p3']), ctx({ order }))).toBe(false);
    expect(passes(none(['p3']), ctx({ order }))).toBe(true);
    expect(passes(none(['p3', 'p2']), ctx({ order }))).toBe(false);
    expect(passes(none(['p3']), ctx({ order: null }))).toBe(false);
  });
});

describe('evaluateValidationRule: the violation', () => {
  const wire: WireRules = {
    1: { name: 'order.amount', conditions: { $more_than: [100] }, error: { message: 'Spend more' } },
    2: { name: 'customer.segment', conditions: { $in: ['vip'] } },
    3: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [1] } },
    logic: '(1 and 2) or 3',
  };

  it('passes when the logic holds though a condition fails', () => {
    expect(evaluateValidationRule(rule(wire, 'Nope'), ctx()).ok).toBe(true);
  });

  it('names the lowest failing condition, its family key and its own message, else the rule message', () => {
    const used = { customerRedemptionsOfRedeemable: 5, customerRedemptionsInCampaign: 5, campaignRedemptions: 5 };
    expect(evaluateValidationRule(rule(wire, 'Nope'), ctx({ counters: used }))).toEqual({
      ok: false,
      key: 'customer_rules_violated',
      condition: '2',
      name: 'customer.segment',
      message: 'Nope',
    });
    expect(evaluateValidationRule(rule(wire, 'Nope'), ctx({ counters: used, order: { amount: 5, items: [], metadata: {} } }))).toMatchObject({
      key: 'order_rules_violated',
      condition: '1',
      message: 'Spend more',
    });
    const only3 = { 1: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [1] } } };
    expect(evaluateValidationRule(rule(only3), ctx({ counters: used }))).toMatchObject({ key: 'redemption_rules_violated', message: null });
  });

  it('evaluateValidationRules: the first failing rule decides and is named', () => {
    const a = { id: 'val_a', ...rule({ 1: { name: 'order.amount', conditions: { $more_than: [0] } } }) };
    const b = { id: 'val_b', ...rule({ 1: { name: 'order.amount', conditions: { $more_than: [1_000_000] } } }, 'too small') };
    expect(evaluateValidationRules([a, b], ctx())).toMatchObject({ ok: false, ruleId: 'val_b', message: 'too small' });
    expect(evaluateValidationRules([a], ctx()).ok).toBe(true);
    expect(evaluateValidationRules([], ctx()).ok).toBe(true);
  });

  it('(1 and 2) passes exactly when both conditions pass, for any order amount and metadata', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.constantFrom('a', 'b', undefined), (amount, loc) => {
        const one = { name: 'order.amount', conditions: { $more_than: [10_000] } };
        const two = { name: 'order.metadata', property: 'loc', conditions: { $is: ['a'] } };
        const c = ctx({ order: { amount, items: [], metadata: loc === undefined ? {} : { loc } } });
        const both = passes({ 1: one, 2: two, logic: '(1 and 2)' }, c);
        expect(both).toBe(passes({ 1: one }, c) && passes({ 1: two }, c));
        expect(passes({ 1: one, 2: two, logic: '1 or 2' }, c)).toBe(passes({ 1: one }, c) || passes({ 1: two }, c));
        // $is and $is_not are complements where the value exists.
        if (loc !== undefined) expect(passes({ 1: { ...two, conditions: { $is_not: ['a'] } } }, c)).toBe(!passes({ 1: two }, c));
      }),
    );
  });
});

describe('ruleNeeds and ruleOrderItem', () => {
  it('says which context parts the rules read', () => {
    expect(ruleNeeds([rule({ 1: { name: 'order.amount', conditions: { $is: [1] } } })])).toEqual({ order: true, customer: false, counters: false });
    expect(ruleNeeds([rule({ 1: { name: 'campaign.redemptions.count', conditions: { $is: [1] } } })])).toEqual({
      order: false,
      customer: false,
      counters: true,
    });
    expect(ruleNeeds([rule({ 1: { name: 'customer.segment', conditions: { $is: ['a'] } } })])).toEqual({ order: false, customer: true, counters: false });
  });

  it('reads product and SKU ids inline from a stored order line', () => {
    expect(
      ruleOrderItem({
        productId: null,
        skuId: null,
        relatedObject: 'sku',
        sourceId: 'S1',
        quantity: 2,
        price: 300,
        amount: null,
        product: { id: 'prod_1', sourceId: 'P1' },
        sku: null,
      }),
    ).toEqual({ productId: 'prod_1', productSourceId: 'P1', skuId: null, skuSourceId: 'S1', quantity: 2, price: 300, amount: 600 });
  });
});
