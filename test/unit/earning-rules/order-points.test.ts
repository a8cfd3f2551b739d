import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EarningRuleLoyalty } from '../../../lib/earning-rules/earning-rule.js';
import {
  type EarningOrder,
  earningCollections,
  itemMatches,
  MAX_POINTS_PER_RULE,
  orderPointsFor,
  ratioPoints,
} from '../../../lib/earning-rules/order-points.js';
import type { OrderItem } from '../../../lib/orders/order.js';

const item = (fields: Partial<OrderItem>): OrderItem => ({
  sourceId: null,
  productId: null,
  skuId: null,
  relatedObject: null,
  quantity: null,
  price: null,
  amount: null,
  product: null,
  sku: null,
  metadata: null,
  ...fields,
});

const order = (fields: Partial<EarningOrder> = {}): EarningOrder => ({ amount: 0, items: [], metadata: {}, ...fields });

const amountRule = (every: number, points: number): EarningRuleLoyalty => ({
  type: 'PROPORTIONAL',
  calculationType: 'ORDER_AMOUNT',
  order: { amount: { every, points } },
});

describe('ratioPoints', () => {
  it('gives points for every whole step and nothing for a value that is not a positive number', () => {
    expect(ratioPoints(12_345, 1000, 1)).toBe(12);
    expect(ratioPoints(999, 1000, 5)).toBe(0);
    expect(ratioPoints(-5, 1, 1)).toBe(0);
    expect(ratioPoints('100', 1, 1)).toBe(0);
    expect(ratioPoints(Number.NaN, 1, 1)).toBe(0);
  });

  it('is a non-negative integer, never above the cap, and never falls as the value grows (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000_000 }),
        fc.integer({ min: 1, max: 1_000_000_000 }),
        (value, more, every, points) => {
          const p = ratioPoints(value, every, points);
          expect(Number.isSafeInteger(p)).toBe(true);
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(MAX_POINTS_PER_RULE);
          expect(ratioPoints(Math.min(value + more, Number.MAX_SAFE_INTEGER), every, points)).toBeGreaterThanOrEqual(p);
          if (p < MAX_POINTS_PER_RULE) expect(p).toBe(Math.floor(value / every) * points);
        },
      ),
    );
  });
});

describe('orderPointsFor', () => {
  it('gives a FIXED rule its points whatever the order', () => {
    expect(orderPointsFor({ type: 'FIXED', points: 7 }, order())).toBe(7);
  });

  it('reads the amount before discounts, or after them (the last redemption) for ORDER_TOTAL_AMOUNT', () => {
    const redeemed = order({ amount: 10_000, calculation: { totalAmount: 7_500 } as EarningOrder['calculation'] });
    expect(orderPointsFor(amountRule(1000, 1), redeemed)).toBe(10);
    const total: EarningRuleLoyalty = { type: 'PROPORTIONAL', calculationType: 'ORDER_TOTAL_AMOUNT', order: { totalAmount: { every: 1000, points: 1 } } };
    expect(orderPointsFor(total, redeemed)).toBe(7);
    expect(orderPointsFor(total, order({ amount: 4_000 }))).toBe(4);
  });

  it('reads a numeric metadata property for ORDER_METADATA, nothing when absent or not a number', () => {
    const rule: EarningRuleLoyalty = {
      type: 'PROPORTIONAL',
      calculationType: 'ORDER_METADATA',
      order: { metadata: { every: 2, points: 3, property: 'nights' } },
    };
    expect(orderPointsFor(rule, order({ metadata: { nights: 5 } }))).toBe(6);
    expect(orderPointsFor(rule, order({ metadata: { nights: 'five' } }))).toBe(0);
    expect(orderPointsFor(rule, order())).toBe(0);
  });

  it("counts the quantity or amount of the rule's products and SKUs only (every item when it names none)", () => {
    const items = [
      item({ productId: 'prod_shoe', quantity: 3, amount: 3000 }),
      item({ product: { sourceId: 'shoe-2' }, quantity: 1, amount: 500 }),
      item({ skuId: 'sku_red', quantity: 2, amount: 800 }),
    ];
    const quantity = (target: Record<string, unknown>): EarningRuleLoyalty =>
      ({ type: 'PROPORTIONAL', calculationType: 'ORDER_ITEMS_QUANTITY', orderItems: { quantity: { every: 1, points: 10, ...target } } }) as EarningRuleLoyalty;
    expect(orderPointsFor(quantity({ object: 'product', id: 'prod_shoe' }), order({ items }))).toBe(30);
    expect(
      orderPointsFor(
        quantity({
          applicableTo: [
            { object: 'product', id: 'shoe-2' },
            { object: 'sku', id: 'sku_red' },
          ],
        }),
        order({ items }),
      ),
    ).toBe(30);
    expect(orderPointsFor(quantity({}), order({ items }))).toBe(60);
    const amount: EarningRuleLoyalty = {
      type: 'PROPORTIONAL',
      calculationType: 'ORDER_ITEMS_AMOUNT',
      orderItems: { amount: { every: 100, points: 1, object: 'sku', id: 'sku_red' } },
    };
    expect(orderPointsFor(amount, order({ items }))).toBe(8);
  });

  it("reads the lines' amount after discounts for ORDER_ITEMS_SUBTOTAL_AMOUNT", () => {
    const rule: EarningRuleLoyalty = {
      type: 'PROPORTIONAL',
      calculationType: 'ORDER_ITEMS_SUBTOTAL_AMOUNT',
      orderItems: { subtotalAmount: { every: 100, points: 1, object: 'product', id: 'prod_shoe' } },
    };
    const items = [item({ productId: 'prod_shoe', amount: 3000 })];
    expect(orderPointsFor(rule, order({ items }))).toBe(30);
    const calculation = { items: [{ productId: 'prod_shoe', skuId: null, subtotalAmount: 2500 }] } as unknown as EarningOrder['calculation'];
    expect(orderPointsFor(rule, order({ items, calculation }))).toBe(25);
  });

  it('gives a custom event calculation nothing for an order', () => {
    const rule: EarningRuleLoyalty = {
      type: 'PROPORTIONAL',
      calculationType: 'CUSTOM_EVENT_METADATA',
      customEvent: { metadata: { every: 1, points: 1, property: 'x' } },
    };
    expect(orderPointsFor(rule, order({ amount: 100, metadata: { x: 100 } }))).toBe(0);
  });
});

describe('itemMatches', () => {
  it('matches a product by product_id, product.id or product.source_id, and a SKU likewise, never across kinds', () => {
    expect(itemMatches(item({ product: { id: 'p1' } }), [{ object: 'product', id: 'p1' }])).toBe(true);
    expect(itemMatches(item({ sku: { sourceId: 's1' } }), [{ object: 'sku', id: 's1' }])).toBe(true);
    expect(itemMatches(item({ productId: 'x' }), [{ object: 'sku', id: 'x' }])).toBe(false);
  });

  it('matches a collection when the line’s product or SKU is in it as read, and never without a read', () => {
    const members = new Set(['pc_a:p1', 'pc_a:s2']);
    const inCollection = (ids: { productId: string | null; skuId: string | null }, c: string) =>
      members.has(`${c}:${ids.productId}`) || members.has(`${c}:${ids.skuId}`);
    const pc = [{ object: 'products_collection' as const, id: 'pc_a' }];
    expect(itemMatches(item({ productId: 'p1' }), pc, inCollection)).toBe(true);
    expect(itemMatches(item({ sku: { id: 's2' } }), pc, inCollection)).toBe(true);
    expect(itemMatches(item({ productId: 'p3' }), pc, inCollection)).toBe(false);
    expect(itemMatches(item({ productId: 'p1' }), pc)).toBe(false);
    const quantity: EarningRuleLoyalty = {
      type: 'PROPORTIONAL',
      calculationType: 'ORDER_ITEMS_QUANTITY',
      orderItems: { quantity: { every: 1, points: 2, object: 'products_collection', id: 'pc_a' } },
    };
    const o = order({ items: [item({ productId: 'p1', quantity: 3 }), item({ productId: 'p3', quantity: 5 })] });
    expect(orderPointsFor(quantity, o, inCollection)).toBe(6);
    expect(earningCollections([quantity, amountRule(1, 1)])).toEqual(['pc_a']);
  });
});
