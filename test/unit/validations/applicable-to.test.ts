import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Discount } from '../../../lib/campaigns/campaign.js';
import { calculate } from '../../../lib/redemptions/calculator.js';
import type { RuleOrderItem } from '../../../lib/validation-rules/rule-evaluation.js';
import type { ApplicableToEntry } from '../../../lib/validation-rules/validation-rule.js';
import { coveredLines } from '../../../lib/validations/applicable-to.js';

const line = (productId: string, quantity: number, price: number): RuleOrderItem => ({
  productId,
  productSourceId: null,
  skuId: null,
  skuSourceId: null,
  quantity,
  price,
  amount: quantity * price,
});
const rules = (included: ApplicableToEntry[], excluded: ApplicableToEntry[] = []) => [{ applicableTo: { included, excluded, includedAll: false } }];
const product = (id: string, more: Partial<ApplicableToEntry> = {}): ApplicableToEntry => ({ object: 'product', id, ...more });

const cart = [line('shoe', 2, 3000), line('sock', 3, 500), line('hat', 1, 2000), line('sock', 1, 400)];

describe('coveredLines (applicable_to)', () => {
  it('restricts nothing without entries', () => {
    expect(coveredLines([{ applicableTo: { included: [], excluded: [], includedAll: false } }], cart)).toBeUndefined();
  });

  it('APPLY_TO_EVERY covers every matching line, quantity_limit units of each', () => {
    expect(coveredLines(rules([product('sock')]), cart)).toEqual([{ index: 1 }, { index: 3 }]);
    expect(coveredLines(rules([product('sock', { quantity_limit: 2 })]), cart)).toEqual([{ index: 1, units: 2 }, { index: 3 }]);
  });

  it('APPLY_TO_CHEAPEST and APPLY_TO_MOST_EXPENSIVE cover one unit of one line', () => {
    expect(coveredLines(rules([product('sock', { effect: 'APPLY_TO_CHEAPEST' })]), cart)).toEqual([{ index: 3 }]);
    expect(coveredLines(rules([product('sock', { effect: 'APPLY_TO_MOST_EXPENSIVE' })]), cart)).toEqual([{ index: 1, units: 1 }]);
  });

  it('APPLY_FROM_CHEAPEST walks up the prices until aggregated_quantity_limit', () => {
    expect(coveredLines(rules([product('sock', { effect: 'APPLY_FROM_CHEAPEST', aggregated_quantity_limit: 3 })]), cart)).toEqual([
      { index: 1, units: 2 },
      { index: 3 },
    ]);
  });

  it('excluded lines are never covered, and a line is covered by its first entry only', () => {
    expect(coveredLines(rules([], [product('sock')]), cart)).toEqual([{ index: 0 }, { index: 2 }]);
    expect(coveredLines(rules([product('sock', { amount_limit: 10 }), product('sock')]), cart)).toEqual([
      { index: 1, amountLimit: 10 },
      { index: 3, amountLimit: 10 },
    ]);
  });

  it('never covers more units than a line has, nor an excluded line (property)', () => {
    const arbEntry = fc.record({
      id: fc.constantFrom('shoe', 'sock', 'hat'),
      effect: fc.constantFrom('APPLY_TO_EVERY', 'APPLY_TO_CHEAPEST', 'APPLY_FROM_CHEAPEST', 'APPLY_TO_MOST_EXPENSIVE', 'APPLY_FROM_MOST_EXPENSIVE'),
      quantity_limit: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      aggregated_quantity_limit: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(arbEntry, { maxLength: 4 }), fc.option(fc.constantFrom('shoe', 'sock', 'hat'), { nil: undefined }), (entries, ex) => {
        const included = entries.map((e) => product(e.id, { ...e, effect: e.effect as ApplicableToEntry['effect'] }));
        const excluded = ex ? [product(ex)] : [];
        const lines = coveredLines(rules(included, excluded), cart) ?? [];
        for (const l of lines) {
          const item = cart[l.index] as RuleOrderItem;
          expect(l.units ?? item.quantity).toBeLessThanOrEqual(item.quantity as number);
          expect(item.productId).not.toBe(ex);
        }
        expect(new Set(lines.map((l) => l.index)).size).toBe(lines.length);
      }),
    );
  });
});

describe('the calculator on covered units', () => {
  const order = { amount: 9900, items: cart.map((i) => ({ productId: i.productId, quantity: i.quantity ?? 0, price: i.price ?? 0, amount: i.amount ?? 0 })) };
  const percent: Discount = { type: 'PERCENT', percentOff: 10, effect: 'APPLY_TO_ITEMS' } as Discount;
  const off = (lines: ReturnType<typeof coveredLines>) =>
    calculate(order, [{ kind: 'discount', id: 'X', discount: percent, ...(lines ? { lines } : {}) }]).order.totalAppliedDiscountAmount;

  it('takes percent_off of the covered units only, held to amount_limit per line and aggregated_amount_limit per entry', () => {
    expect(off(undefined)).toBe(990);
    expect(off(coveredLines(rules([product('shoe', { quantity_limit: 1 })]), cart))).toBe(300);
    expect(off(coveredLines(rules([product('shoe', { amount_limit: 250 })]), cart))).toBe(250);
    expect(off(coveredLines(rules([product('sock', { aggregated_amount_limit: 100 })]), cart))).toBe(100);
    expect(off(coveredLines(rules([product('sock', { effect: 'APPLY_TO_CHEAPEST' })]), cart))).toBe(40);
  });
});
