import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Calculation, calculate, type OrderCalculation, type OrderInput } from '../../../lib/redemptions/calculator.js';
import type { Discount, Redeemable } from '../../../lib/redemptions/discount.js';
import { percentOf, splitByWeights, splitCapped } from '../../../lib/redemptions/money.js';
import { applicationOrder, SORTING_RULES } from '../../../lib/redemptions/stacking-order.js';

const money = fc.integer({ min: 0, max: 1_000_000 });
const productIds = ['p0', 'p1', 'p2', 'p3'];

const line = fc.record({
  productId: fc.constantFrom(...productIds),
  quantity: fc.integer({ min: 0, max: 20 }),
  price: money,
  amount: money,
  discountAmount: fc.option(money, { nil: undefined }),
});

/** Orders as callers may send them, including ones whose amount is not the sum of their lines or that carry earlier discounts. */
const order: fc.Arbitrary<OrderInput> = fc
  .record({ items: fc.array(line, { maxLength: 6 }), extra: fc.integer({ min: -50_000, max: 50_000 }), discountAmount: fc.option(money, { nil: undefined }) })
  .map(({ items, extra, discountAmount }) => ({
    amount: Math.max(items.reduce((a, i) => a + i.amount, 0) + extra, 0),
    discountAmount,
    items,
  }));

const itemEffect = fc.constantFrom(
  'APPLY_TO_ORDER',
  'APPLY_TO_ITEMS',
  'APPLY_TO_ITEMS_PROPORTIONALLY',
  'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY',
  'APPLY_TO_ITEMS_BY_QUANTITY',
) as fc.Arbitrary<
  'APPLY_TO_ORDER' | 'APPLY_TO_ITEMS' | 'APPLY_TO_ITEMS_PROPORTIONALLY' | 'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY' | 'APPLY_TO_ITEMS_BY_QUANTITY'
>;
const orderOrItems = fc.constantFrom('APPLY_TO_ORDER', 'APPLY_TO_ITEMS') as fc.Arbitrary<'APPLY_TO_ORDER' | 'APPLY_TO_ITEMS'>;
const limit = fc.option(money, { nil: undefined });

const discountArb: fc.Arbitrary<Discount> = fc.oneof(
  fc.record({ type: fc.constant('AMOUNT' as const), amountOff: money, effect: itemEffect, aggregatedAmountLimit: limit }),
  fc.record({
    type: fc.constant('PERCENT' as const),
    percentOff: fc.double({ min: 0, max: 100, noNaN: true }),
    effect: orderOrItems,
    amountLimit: limit,
  }),
  fc.record({ type: fc.constant('FIXED' as const), fixedAmount: money, effect: orderOrItems }),
  fc.record({
    type: fc.constant('UNIT' as const),
    effect: fc.constantFrom('ADD_MISSING_ITEMS' as const, 'ADD_NEW_ITEMS' as const),
    unitOff: fc.integer({ min: 0, max: 10 }),
    unitType: fc.constantFrom(...productIds, 'p_new'),
  }),
);

const redeemable: fc.Arbitrary<Redeemable> = fc.oneof(
  fc.record({
    kind: fc.constant('discount' as const),
    id: fc.string({ maxLength: 5 }),
    discount: discountArb,
    lines: fc.option(fc.array(fc.record({ index: fc.integer({ min: -1, max: 7 }), price: fc.option(money, { nil: undefined }) }), { maxLength: 6 }), {
      nil: undefined,
    }),
    unitPrices: fc.option(fc.dictionary(fc.constantFrom(...productIds, 'p_new'), money), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('gift' as const), id: fc.string({ maxLength: 5 }), balance: money, credits: fc.option(money, { nil: undefined }) }),
  fc.record({ kind: fc.constant('none' as const), id: fc.string({ maxLength: 5 }) }),
);

const request = fc.record({ order, redeemables: fc.array(redeemable, { maxLength: 6 }) });

/** Every invariant one set of figures must keep (the whole request's, or one step's). */
function checkFigures(o: OrderCalculation): void {
  for (const item of o.items) {
    expect(item.discountAmount).toBeGreaterThanOrEqual(0);
    expect(item.discountAmount).toBeLessThanOrEqual(item.amount);
    expect(item.appliedDiscountAmount).toBeGreaterThanOrEqual(0);
    expect(item.appliedDiscountAmount).toBeLessThanOrEqual(item.discountAmount);
    expect(item.subtotalAmount).toBe(item.amount - item.discountAmount);
  }
  expect(o.totalAmount).toBeGreaterThanOrEqual(0);
  expect(o.totalAmount).toBe(o.amount - o.totalDiscountAmount);
  expect(o.itemsDiscountAmount).toBe(o.items.reduce((a, i) => a + i.discountAmount, 0));
  expect(o.itemsAppliedDiscountAmount).toBe(o.items.reduce((a, i) => a + i.appliedDiscountAmount, 0));
  expect(o.totalDiscountAmount).toBe(o.discountAmount + o.itemsDiscountAmount);
  expect(o.totalAppliedDiscountAmount).toBe(o.appliedDiscountAmount + o.itemsAppliedDiscountAmount);
  expect(o.appliedDiscountAmount).toBeGreaterThanOrEqual(0);
  expect(o.appliedDiscountAmount).toBeLessThanOrEqual(o.discountAmount);
  for (const value of [o.amount, o.discountAmount, o.totalDiscountAmount, o.totalAmount, ...o.items.flatMap((i) => Object.values(i))]) {
    if (typeof value === 'number') expect(Number.isSafeInteger(value)).toBe(true);
  }
}

describe('calculator properties', () => {
  it('never gives a total below zero nor an item discount above its amount, in total and after every step', () => {
    fc.assert(
      fc.property(request, ({ order, redeemables }) => {
        const result = calculate(order, redeemables);
        checkFigures(result.order);
        for (const step of result.steps) checkFigures(step.order);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same figures for the same input (validation and redemption agree), without changing the input', () => {
    fc.assert(
      fc.property(request, ({ order, redeemables }) => {
        const before = structuredClone({ order, redeemables });
        const validation: Calculation = calculate(order, redeemables);
        const redemption: Calculation = calculate(structuredClone(order), structuredClone(redeemables));
        expect(redemption).toEqual(validation);
        expect({ order, redeemables }).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it("makes the request's applied figures the sum of its steps' applied figures", () => {
    fc.assert(
      fc.property(request, ({ order, redeemables }) => {
        const { order: total, steps } = calculate(order, redeemables);
        expect(total.totalAppliedDiscountAmount).toBe(steps.reduce((a, s) => a + s.appliedAmount, 0));
        expect(total.appliedDiscountAmount).toBe(steps.reduce((a, s) => a + s.order.appliedDiscountAmount, 0));
        const last = steps.at(-1)?.order;
        if (last)
          expect({ ...last, appliedDiscountAmount: 0, itemsAppliedDiscountAmount: 0, totalAppliedDiscountAmount: 0, items: [] }).toEqual({
            ...total,
            appliedDiscountAmount: 0,
            itemsAppliedDiscountAmount: 0,
            totalAppliedDiscountAmount: 0,
            items: [],
          });
      }),
      { numRuns: 300 },
    );
  });

  it('never gives more gift credits than the balance or the credits asked for', () => {
    fc.assert(
      fc.property(request, ({ order, redeemables }) => {
        const { steps } = calculate(order, redeemables);
        steps.forEach((step, i) => {
          const r = redeemables[i] as Redeemable;
          if (r.kind !== 'gift') {
            expect(step.credits).toBe(0);
            return;
          }
          expect(step.credits).toBeLessThanOrEqual(r.balance);
          if (r.credits !== undefined) expect(step.credits).toBeLessThanOrEqual(r.credits);
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('stacking order properties', () => {
  const sortable = fc.record({
    id: fc.nat(),
    categories: fc.option(fc.array(fc.record({ hierarchy: fc.integer({ min: 0, max: 5 }) }), { maxLength: 3 }), { nil: null }),
  });

  it('orders deterministically: a permutation of the input, the same each time, stable under sorting again', () => {
    fc.assert(
      fc.property(fc.uniqueArray(sortable, { selector: (r) => r.id, maxLength: 30 }), fc.constantFrom(...SORTING_RULES), (redeemables, rule) => {
        const once = applicationOrder(redeemables, rule);
        expect(applicationOrder(redeemables, rule)).toEqual(once);
        expect(applicationOrder(once, rule)).toEqual(once);
        expect([...once].sort((a, b) => a.id - b.id)).toEqual([...redeemables].sort((a, b) => a.id - b.id));
      }),
    );
  });

  it('keeps the request order under REQUESTED_ORDER and puts better categories first under CATEGORY_HIERARCHY', () => {
    const best = (r: { categories: { hierarchy: number }[] | null }) =>
      r.categories && r.categories.length > 0 ? Math.min(...r.categories.map((c) => c.hierarchy)) : Number.POSITIVE_INFINITY;
    fc.assert(
      fc.property(fc.uniqueArray(sortable, { selector: (r) => r.id, maxLength: 30 }), (redeemables) => {
        expect(applicationOrder(redeemables, 'REQUESTED_ORDER')).toEqual(redeemables);
        const sorted = applicationOrder(redeemables, 'CATEGORY_HIERARCHY');
        for (let i = 1; i < sorted.length; i += 1) {
          const a = sorted[i - 1] as (typeof sorted)[number];
          const b = sorted[i] as (typeof sorted)[number];
          expect(best(a)).toBeLessThanOrEqual(best(b));
          // Equal priorities keep the request's order.
          if (best(a) === best(b)) expect(redeemables.indexOf(a)).toBeLessThan(redeemables.indexOf(b));
        }
      }),
    );
  });
});

describe('money properties', () => {
  it('splits by largest remainder into shares that sum exactly to the total', () => {
    fc.assert(
      fc.property(money, fc.array(money, { minLength: 1, maxLength: 8 }), (total, weights) => {
        const shares = splitByWeights(total, weights);
        const sum = weights.reduce((a, w) => a + w, 0);
        expect(shares.reduce((a, s) => a + s, 0)).toBe(sum === 0 ? 0 : total);
        shares.forEach((s, i) => {
          const exact = sum === 0 ? 0 : (total * (weights[i] as number)) / sum;
          expect(Math.abs(s - exact)).toBeLessThan(1 + 1e-6);
        });
      }),
    );
  });

  it('splits under caps without passing a cap and loses nothing the caps could hold', () => {
    fc.assert(
      fc.property(money, fc.array(fc.tuple(money, money), { minLength: 1, maxLength: 8 }), (total, pairs) => {
        const weights = pairs.map(([w]) => w);
        const caps = pairs.map(([, c]) => c);
        const shares = splitCapped(total, weights, caps);
        shares.forEach((s, i) => {
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(caps[i] as number);
        });
        expect(shares.reduce((a, s) => a + s, 0)).toBe(
          Math.min(
            total,
            caps.reduce((a, c) => a + c, 0),
          ),
        );
      }),
    );
  });

  it('takes a percentage that is never more than the amount and within half a unit of the exact figure', () => {
    fc.assert(
      fc.property(money, fc.integer({ min: 0, max: 100 }), (amount, percent) => {
        const off = percentOf(amount, percent);
        expect(off).toBeLessThanOrEqual(amount);
        expect(Math.abs(off - (amount * percent) / 100)).toBeLessThanOrEqual(0.5);
      }),
    );
  });
});
