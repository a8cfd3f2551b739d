import { describe, expect, it } from 'vitest';
import { calculate, type OrderInput } from '../../../lib/redemptions/calculator.js';
import { type Discount, type Redeemable, unsupportedDiscountField } from '../../../lib/redemptions/discount.js';
import { AppError, UnsupportedDiscountError } from '../../../lib/errors.js';

const discount = (id: string, d: Discount, extra: Partial<Extract<Redeemable, { kind: 'discount' }>> = {}): Redeemable => ({
  kind: 'discount',
  id,
  discount: d,
  ...extra,
});

/** The order of the reference's validation examples "Fixed", "Percentage" and "Amount" (POST /v1/vouchers/{code}/validate). */
const webinarOrder: OrderInput = {
  amount: 46500,
  items: [
    { productId: 'pink_sweater', quantity: 1, price: 6500, amount: 6500 },
    { productId: 'navy_sweat_pants', quantity: 1, price: 6000, amount: 6000 },
    { productId: 'shipping', quantity: 1, price: 2000, amount: 2000 },
    { productId: 'gray_sweat_pants', quantity: 2, price: 5000, amount: 10000 },
    { productId: 'sweater_pearl', quantity: 2, price: 11000, amount: 22000 },
  ],
};

describe("the reference's worked examples", () => {
  it('gives the figures of the five-redeemable stacked validation, step by step and in total', () => {
    const order: OrderInput = {
      amount: 2700,
      items: [
        { productId: 'prod_s3C0nDpr0DuC7', skuId: 'sku_0a3efc90375d1217e2', quantity: 1, price: 2000, amount: 2000 },
        { productId: 'prod_0bc3bd8a4e072c5275', quantity: 1, price: 700, amount: 700 },
      ],
    };
    const { order: total, steps } = calculate(order, [
      discount('GNcuPKGe', { type: 'AMOUNT', amountOff: 1000, effect: 'APPLY_TO_ITEMS' }),
      { kind: 'none', id: 'AnsvocvP' },
      { kind: 'gift', id: 'M3X8IwW8', balance: 10_000, credits: 100 },
      discount('promo_DE1N30D731Tg2F6NoMwNas2W', { type: 'PERCENT', percentOff: 40, effect: 'APPLY_TO_ORDER' }),
      discount('promo_NDHgTg4VnOLYNjk9r7WOmQxf', { type: 'AMOUNT', amountOff: 30, effect: 'APPLY_TO_ORDER' }),
    ]);

    const pick = (o: typeof total) => ({
      amount: o.amount,
      discount_amount: o.discountAmount,
      items_discount_amount: o.itemsDiscountAmount,
      total_discount_amount: o.totalDiscountAmount,
      total_amount: o.totalAmount,
      applied_discount_amount: o.appliedDiscountAmount,
      items_applied_discount_amount: o.itemsAppliedDiscountAmount,
      total_applied_discount_amount: o.totalAppliedDiscountAmount,
      items: o.items.map((i) => [i.amount, i.discountAmount, i.appliedDiscountAmount, i.subtotalAmount]),
    });
    const fields = (discountAmount: number, totalDiscount: number, totalAmount: number, applied: number, itemsApplied: number) => ({
      amount: 2700,
      discount_amount: discountAmount,
      items_discount_amount: 1700,
      total_discount_amount: totalDiscount,
      total_amount: totalAmount,
      applied_discount_amount: applied,
      items_applied_discount_amount: itemsApplied,
      total_applied_discount_amount: applied + itemsApplied,
    });
    const lines = (applied: [number, number]) => [
      [2000, 1000, applied[0], 1000],
      [700, 700, applied[1], 0],
    ];

    expect(steps.map((s) => pick(s.order))).toEqual([
      { ...fields(0, 1700, 1000, 0, 1700), items: lines([1000, 700]) },
      { ...fields(0, 1700, 1000, 0, 0), items: lines([0, 0]) },
      { ...fields(100, 1800, 900, 100, 0), items: lines([0, 0]) },
      { ...fields(460, 2160, 540, 360, 0), items: lines([0, 0]) },
      { ...fields(490, 2190, 510, 30, 0), items: lines([0, 0]) },
    ]);
    expect(pick(total)).toEqual({ ...fields(490, 2190, 510, 490, 1700), items: lines([1000, 700]) });
    expect(steps.map((s) => [s.id, s.appliedAmount, s.credits])).toEqual([
      ['GNcuPKGe', 1700, 0],
      ['AnsvocvP', 0, 0],
      ['M3X8IwW8', 100, 100],
      ['promo_DE1N30D731Tg2F6NoMwNas2W', 360, 0],
      ['promo_NDHgTg4VnOLYNjk9r7WOmQxf', 30, 0],
    ]);
  });

  it('splits 300 off two lines proportionally as 148 and 152 (redeem-voucher "Discount Coupon")', () => {
    const { order } = calculate(
      {
        amount: 6000,
        items: [
          { productId: 'prod_0a9f9ab4ab019a42d5', quantity: 1, price: 3000, amount: 3300 },
          { productId: 'prod_0a9f9aeddb019a42db', quantity: 2, price: 3000, amount: 3400 },
        ],
      },
      [discount('2CpRCE2c', { type: 'AMOUNT', amountOff: 300, effect: 'APPLY_TO_ITEMS_PROPORTIONALLY' })],
    );
    expect(order.items.map((i) => [i.discountAmount, i.appliedDiscountAmount, i.subtotalAmount])).toEqual([
      [148, 148, 3152],
      [152, 152, 3248],
    ]);
    expect([
      order.itemsDiscountAmount,
      order.totalDiscountAmount,
      order.totalAmount,
      order.itemsAppliedDiscountAmount,
      order.totalAppliedDiscountAmount,
    ]).toEqual([300, 300, 5700, 300, 300]);
  });

  it('sets each covered line to its FIXED price (validate-voucher "Fixed")', () => {
    const prices = [5200, 5400, 0, 4500, 8800];
    const { order } = calculate(webinarOrder, [
      discount(
        'SPENDMOREGETMORE-DaIXFJvn',
        { type: 'FIXED', fixedAmount: 0, effect: 'APPLY_TO_ITEMS' },
        { lines: prices.map((price, index) => ({ index, price })) },
      ),
    ]);
    expect(order.items.map((i) => [i.discountAmount, i.subtotalAmount])).toEqual([
      [1300, 5200],
      [600, 5400],
      [2000, 0],
      [1000, 9000],
      [4400, 17600],
    ]);
    expect([order.itemsDiscountAmount, order.totalDiscountAmount, order.totalAmount, order.totalAppliedDiscountAmount]).toEqual([9300, 9300, 37200, 9300]);
  });

  it('takes 10% and 1000 off the order (validate-voucher "Percentage" and "Amount")', () => {
    const percent = calculate(webinarOrder, [discount('EarlyBird-tB6zCApA', { type: 'PERCENT', percentOff: 10, effect: 'APPLY_TO_ORDER' })]).order;
    expect([percent.discountAmount, percent.totalAmount, percent.appliedDiscountAmount, percent.itemsDiscountAmount]).toEqual([4650, 41850, 4650, 0]);
    const amount = calculate(webinarOrder, [discount('PAYINEUROS', { type: 'AMOUNT', amountOff: 1000, effect: 'APPLY_TO_ORDER' })]).order;
    expect([amount.discountAmount, amount.totalAmount, amount.totalAppliedDiscountAmount]).toEqual([1000, 45500, 1000]);
  });

  it('brings every covered line down to 800 with FIXED 800 on items (validate-promotions "Customer Rules Only")', () => {
    const amounts = [2900, 3100, 2900, 1700, 1500, 60000];
    const { order } = calculate({ amount: 72100, items: amounts.map((a) => ({ quantity: 1, price: a, amount: a })) }, [
      discount('promo', { type: 'FIXED', fixedAmount: 800, effect: 'APPLY_TO_ITEMS' }),
    ]);
    expect(order.items.map((i) => i.discountAmount)).toEqual([2100, 2300, 2100, 900, 700, 59200]);
    expect([order.itemsDiscountAmount, order.totalAmount]).toEqual([67300, 4800]);
  });

  /** The order of the reference's UNIT examples: two lines, a free shipping unit and 8400 off from an earlier stacked redemption. */
  const unitOrder: OrderInput = {
    amount: 28000,
    discountAmount: 8400,
    items: [
      { skuId: 'A0E20000000295J', productId: 'prod_0b661d31134b299cc2', quantity: 1, price: 9500, amount: 9500 },
      { skuId: 'M0E20000000EAT6', quantity: 1, price: 18500, amount: 18500 },
      { productId: 'prod_5h1pp1ng', quantity: 1, price: 0, amount: 0, discountQuantity: 1, initialQuantity: 0 },
    ],
  };

  it('adds three free units on a new line, counting only them as applied (validate-voucher "Unit - Add order items")', () => {
    const { order } = calculate(unitOrder, [
      discount(
        'unit',
        { type: 'UNIT', effect: 'ADD_NEW_ITEMS', unitOff: 3, unitType: 'sku_0b661e41fc8d35a8f8', sku: { id: 'sku_0b661e41fc8d35a8f8', name: 'sku' } },
        { unitPrices: { sku_0b661e41fc8d35a8f8: 29900 } },
      ),
    ]);
    expect({
      amount: order.amount,
      initial_amount: order.initialAmount,
      discount_amount: order.discountAmount,
      items_discount_amount: order.itemsDiscountAmount,
      total_discount_amount: order.totalDiscountAmount,
      total_amount: order.totalAmount,
      applied_discount_amount: order.appliedDiscountAmount,
      items_applied_discount_amount: order.itemsAppliedDiscountAmount,
      total_applied_discount_amount: order.totalAppliedDiscountAmount,
    }).toEqual({
      amount: 117700,
      initial_amount: 28000,
      discount_amount: 8400,
      items_discount_amount: 89700,
      total_discount_amount: 98100,
      total_amount: 19600,
      applied_discount_amount: 0,
      items_applied_discount_amount: 89700,
      total_applied_discount_amount: 89700,
    });
    expect(order.items[3]).toMatchObject({
      skuId: 'sku_0b661e41fc8d35a8f8',
      quantity: 3,
      discountQuantity: 3,
      initialQuantity: 0,
      amount: 89700,
      discountAmount: 89700,
      initialAmount: 0,
      appliedDiscountAmount: 89700,
      price: 29900,
      subtotalAmount: 0,
    });
  });

  it('adds missing and new units of two variants at once (validate-voucher "Multiple Product Varients")', () => {
    const { order } = calculate(unitOrder, [
      discount(
        'many',
        {
          type: 'UNIT',
          effect: 'ADD_MANY_ITEMS',
          units: [
            { effect: 'ADD_MISSING_ITEMS', unitOff: 3, unitType: 'sku_0b661e41fc8d35a8f7' },
            { effect: 'ADD_NEW_ITEMS', unitOff: 4, unitType: 'sku_0b661e41fc8d35a8f6' },
          ],
        },
        { unitPrices: { sku_0b661e41fc8d35a8f7: 29900, sku_0b661e41fc8d35a8f6: 29900 } },
      ),
    ]);
    expect([order.amount, order.initialAmount, order.discountAmount, order.itemsDiscountAmount, order.totalDiscountAmount, order.totalAmount]).toEqual([
      237300, 28000, 8400, 209300, 217700, 19600,
    ]);
    expect([order.itemsAppliedDiscountAmount, order.totalAppliedDiscountAmount]).toEqual([209300, 209300]);
    expect(order.items.slice(3).map((i) => [i.quantity, i.discountQuantity, i.amount, i.discountAmount, i.subtotalAmount])).toEqual([
      [3, 3, 89700, 89700, 0],
      [4, 4, 119600, 119600, 0],
    ]);
  });

  it('takes gift credits off the order (validate-voucher "Gift Card", redeem-voucher "Gift Voucher")', () => {
    const two = calculate({ amount: 1000 }, [{ kind: 'gift', id: 'GIFT-CARD-kW4aEsfB', balance: 21500, credits: 2 }]);
    expect([two.order.discountAmount, two.order.totalAmount, two.order.appliedDiscountAmount, two.steps[0]?.credits]).toEqual([2, 998, 2, 2]);
    const all = calculate({ amount: 6000 }, [{ kind: 'gift', id: 'CODE14', balance: 2000 }]);
    expect([all.order.discountAmount, all.order.totalAmount, all.steps[0]?.credits]).toEqual([2000, 4000, 2000]);
  });

  it('counts only this request as applied on an order redeemed before (get-redemption "Gift Card")', () => {
    const { order } = calculate({ amount: 30200, discountAmount: 4530 }, [{ kind: 'gift', id: 'gift', balance: 5000, credits: 5000 }]);
    expect([order.discountAmount, order.totalDiscountAmount, order.totalAmount, order.appliedDiscountAmount, order.totalAppliedDiscountAmount]).toEqual([
      9530, 9530, 20670, 5000, 5000,
    ]);
  });
});

describe('discount types and effects', () => {
  const twoLines: OrderInput = {
    amount: 1000,
    items: [
      { productId: 'a', quantity: 3, price: 100, amount: 300 },
      { productId: 'b', quantity: 1, price: 700, amount: 700 },
    ],
  };

  it('never takes more than the order is worth, whatever the discount', () => {
    const { order } = calculate(twoLines, [
      discount('big', { type: 'AMOUNT', amountOff: 5000 }),
      discount('more', { type: 'PERCENT', percentOff: 50 }),
      { kind: 'gift', id: 'gift', balance: 5000 },
    ]);
    expect([order.discountAmount, order.totalAmount]).toEqual([1000, 0]);
  });

  it('caps an item discount by what order-level discounts before it left of the order', () => {
    const { order, steps } = calculate(twoLines, [
      discount('order', { type: 'AMOUNT', amountOff: 800 }),
      discount('items', { type: 'AMOUNT', amountOff: 500, effect: 'APPLY_TO_ITEMS' }),
    ]);
    // 300 and 500 would be 800 off the lines, but only 200 of the order is left: split 300:500 → 75 and 125.
    expect(order.items.map((i) => i.discountAmount)).toEqual([75, 125]);
    expect([steps[1]?.appliedAmount, order.totalAmount]).toEqual([200, 0]);
  });

  it('discounts a line named twice once, and ignores an index outside the order', () => {
    const { order } = calculate(twoLines, [
      discount('items', { type: 'AMOUNT', amountOff: 10, effect: 'APPLY_TO_ITEMS' }, { lines: [{ index: 1 }, { index: 1 }, { index: 7 }] }),
    ]);
    expect(order.items.map((i) => i.discountAmount)).toEqual([0, 10]);
  });

  it('caps a percent discount at amount_limit', () => {
    const { order } = calculate(twoLines, [discount('p', { type: 'PERCENT', percentOff: 50, amountLimit: 120 })]);
    expect(order.discountAmount).toBe(120);
  });

  it('rounds a percentage to the nearest unit, halves up', () => {
    const half = calculate({ amount: 125 }, [discount('p', { type: 'PERCENT', percentOff: 10 })]).order;
    expect(half.discountAmount).toBe(13);
    const down = calculate({ amount: 124 }, [discount('p', { type: 'PERCENT', percentOff: 10 })]).order;
    expect(down.discountAmount).toBe(12);
  });

  it('applies PERCENT on items to what is left of each covered line, capped by amount_limit as a whole', () => {
    const { order } = calculate(twoLines, [
      discount('p', { type: 'PERCENT', percentOff: 10, effect: 'APPLY_TO_ITEMS' }, { lines: [{ index: 1 }] }),
      discount('q', { type: 'PERCENT', percentOff: 50, effect: 'APPLY_TO_ITEMS', amountLimit: 100 }),
    ]);
    // 10% of the second line's 700 = 70; then 50% of 300 and of 630 = 150 + 315, capped at 100 and split 150:315 by largest remainder.
    expect(order.items.map((i) => i.discountAmount)).toEqual([32, 70 + 68]);
    expect(order.itemsDiscountAmount).toBe(170);
  });

  it('takes amount_off per unit with APPLY_TO_ITEMS_BY_QUANTITY, within aggregated_amount_limit', () => {
    const { order } = calculate(twoLines, [discount('q', { type: 'AMOUNT', amountOff: 50, effect: 'APPLY_TO_ITEMS_BY_QUANTITY' })]);
    expect(order.items.map((i) => i.discountAmount)).toEqual([150, 50]);
    const limited = calculate(twoLines, [discount('q', { type: 'AMOUNT', amountOff: 50, effect: 'APPLY_TO_ITEMS_BY_QUANTITY', aggregatedAmountLimit: 100 })]);
    expect(limited.order.items.map((i) => i.discountAmount)).toEqual([75, 25]);
  });

  it('splits by quantity with APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY, moving what a line cannot take to the others', () => {
    const { order } = calculate(
      {
        amount: 1000,
        items: [
          { quantity: 9, price: 10, amount: 90 },
          { quantity: 1, price: 910, amount: 910 },
        ],
      },
      [discount('q', { type: 'AMOUNT', amountOff: 200, effect: 'APPLY_TO_ITEMS_PROPORTIONALLY_BY_QUANTITY' })],
    );
    // 9:1 of 200 would be 180 and 20, but the first line holds 90: the other 90 go to the second.
    expect(order.items.map((i) => i.discountAmount)).toEqual([90, 110]);
  });

  it('sets the order to fixed_amount with FIXED on the order, and leaves a cheaper order alone', () => {
    expect(calculate(twoLines, [discount('f', { type: 'FIXED', fixedAmount: 600 })]).order.totalAmount).toBe(600);
    expect(calculate(twoLines, [discount('f', { type: 'FIXED', fixedAmount: 1600 })]).order.totalAmount).toBe(1000);
  });

  it('adds only the missing units with ADD_MISSING_ITEMS and makes unit_off of them free', () => {
    const { order } = calculate(twoLines, [discount('u', { type: 'UNIT', effect: 'ADD_MISSING_ITEMS', unitOff: 5, unitType: 'a' })]);
    expect(order.items[0]).toMatchObject({
      quantity: 5,
      initialQuantity: 3,
      appliedQuantity: 2,
      appliedQuantityAmount: 200,
      amount: 500,
      initialAmount: 300,
      discountQuantity: 5,
      discountAmount: 500,
      subtotalAmount: 0,
    });
    expect([order.amount, order.initialAmount, order.totalAmount]).toEqual([1200, 1000, 700]);
  });

  it('adds unit_off more units with ADD_NEW_ITEMS to a line that has the product', () => {
    const { order } = calculate(twoLines, [discount('u', { type: 'UNIT', effect: 'ADD_NEW_ITEMS', unitOff: 2, unitType: 'b' })]);
    expect(order.items[1]).toMatchObject({ quantity: 3, appliedQuantity: 2, amount: 2100, discountAmount: 1400, subtotalAmount: 700 });
    expect(order.totalAmount).toBe(1000);
  });

  it('gives no more gift credits than the balance holds', () => {
    const { order, steps } = calculate({ amount: 5000 }, [{ kind: 'gift', id: 'g', balance: 300, credits: 1000 }]);
    expect([steps[0]?.credits, order.totalAmount]).toEqual([300, 4700]);
  });

  it('leaves the input as it was', () => {
    const input: OrderInput = structuredClone(twoLines);
    calculate(input, [discount('u', { type: 'UNIT', effect: 'ADD_NEW_ITEMS', unitOff: 2, unitType: 'b' }), discount('a', { type: 'AMOUNT', amountOff: 10 })]);
    expect(input).toEqual(twoLines);
  });
});

describe('discounts the calculator cannot evaluate', () => {
  it('names the formula field, also inside units, and nothing for a plain discount', () => {
    expect(unsupportedDiscountField({ type: 'AMOUNT', amountOff: 100, amountOffFormula: 'x' })).toBe('discount.amount_off_formula');
    expect(unsupportedDiscountField({ type: 'PERCENT', percentOff: 1, percentOffFormula: 'x' })).toBe('discount.percent_off_formula');
    expect(unsupportedDiscountField({ type: 'FIXED', fixedAmount: 1, fixedAmountFormula: 'x' })).toBe('discount.fixed_amount_formula');
    expect(unsupportedDiscountField({ type: 'UNIT', unitType: 'p', unitOffFormula: 'x' })).toBe('discount.unit_off_formula');
    expect(
      unsupportedDiscountField({
        type: 'UNIT',
        effect: 'ADD_MANY_ITEMS',
        units: [
          { effect: 'ADD_NEW_ITEMS', unitType: 'p', unitOff: 1 },
          { effect: 'ADD_NEW_ITEMS', unitType: 'q', unitOffFormula: 'y' },
        ],
      }),
    ).toBe('discount.units[1].unit_off_formula');
    expect(unsupportedDiscountField({ type: 'UNIT', unitType: 'p', effect: 'ADD_SAME_ITEMS' })).toBe('discount.effect ADD_SAME_ITEMS');
    expect(unsupportedDiscountField({ type: 'AMOUNT', amountOff: 100 })).toBeNull();
  });

  it('refuses to calculate with a formula: a 400 naming the field and the redeemable', () => {
    const run = () => calculate({ amount: 1000 }, [discount('CODE1', { type: 'PERCENT', percentOff: 10, percentOffFormula: 'ORDER_AMOUNT' })]);
    expect(run).toThrow(UnsupportedDiscountError);
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const e = error as AppError;
      expect([e.status, e.key, e.resourceId]).toEqual([400, 'bad_request', 'CODE1']);
      expect(e.details).toContain('discount.percent_off_formula');
    }
  });
});
