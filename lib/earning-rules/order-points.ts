import type { Order, OrderItem } from '../orders/order.js';
import type { LineCalculation } from '../redemptions/calculator.js';
import type { EarningRuleLoyalty } from './earning-rule.js';

/*
 * The points an `order.paid` rule gives for an order: pure, no I/O. Amounts are integers in the
 * smallest currency unit (the reference's `every` is "multiplied by 100" for the same reason), so
 * `every: 1000, points: 1` is one point per whole 10.00 spent.
 */

/** The most points one rule gives for one order: the most a rule may name (its `points` maximum). */
export const MAX_POINTS_PER_RULE = 1_000_000_000;

/** What a rule reads of an order. */
export type EarningOrder = Pick<Order, 'amount' | 'items' | 'metadata' | 'calculation'>;

/** A product, SKU or product collection an item-based rule counts. */
export interface ItemTarget {
  object: 'product' | 'sku' | 'products_collection';
  id: string;
}

/** Whether a line (by its catalog ids) is in a collection, as read for the order (lib/orders/order-catalog.ts `inCollection`); absent: in none. */
export type InCollection = (ids: { productId: string | null; skuId: string | null }, collectionId: string) => boolean;

/** The product collections the order-item rules of `loyalties` name. */
export function earningCollections(loyalties: readonly EarningRuleLoyalty[]): string[] {
  const ids = new Set<string>();
  for (const l of loyalties) {
    if (l.type !== 'PROPORTIONAL' || !('orderItems' in l)) continue;
    const r = 'quantity' in l.orderItems ? l.orderItems.quantity : 'amount' in l.orderItems ? l.orderItems.amount : l.orderItems.subtotalAmount;
    for (const t of targetsOf(r)) if (t.object === 'products_collection') ids.add(t.id);
  }
  return [...ids];
}

/**
 * `points` for every whole `every` of `value`, capped at MAX_POINTS_PER_RULE; none for a value that
 * is not a positive finite number.
 */
export function ratioPoints(value: unknown, every: number, points: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || every <= 0) return 0;
  const steps = Math.floor(value / every);
  if (steps <= 0) return 0;
  return steps >= MAX_POINTS_PER_RULE / points ? MAX_POINTS_PER_RULE : steps * points;
}

/** The targets a rule names: its `applicable_to`, else its `object` + `id`; none means every item counts. */
export function targetsOf(ratio: {
  object?: ItemTarget['object'] | undefined;
  id?: string | undefined;
  applicableTo?: ItemTarget[] | undefined;
}): ItemTarget[] {
  if (ratio.applicableTo && ratio.applicableTo.length > 0) return ratio.applicableTo;
  return ratio.object !== undefined && ratio.id !== undefined ? [{ object: ratio.object, id: ratio.id }] : [];
}

/**
 * Whether a line is one of `targets`: a product by `product_id`, `product.id` or `product.source_id`;
 * a SKU likewise; a collection when the line's product or SKU is in it (`inCollection`).
 */
export function itemMatches(
  item: Pick<OrderItem, 'productId' | 'skuId' | 'product' | 'sku'>,
  targets: readonly ItemTarget[],
  inCollection?: InCollection,
): boolean {
  if (targets.length === 0) return true;
  const ids = { productId: item.productId ?? item.product?.id ?? null, skuId: item.skuId ?? item.sku?.id ?? null };
  return targets.some((t) =>
    t.object === 'products_collection'
      ? inCollection?.(ids, t.id) === true
      : t.object === 'product'
        ? t.id === item.productId || t.id === item.product?.id || t.id === item.product?.sourceId
        : t.id === item.skuId || t.id === item.sku?.id || t.id === item.sku?.sourceId,
  );
}

const lineMatches = (line: LineCalculation, targets: readonly ItemTarget[], inCollection?: InCollection): boolean =>
  targets.length === 0 ||
  targets.some((t) =>
    t.object === 'products_collection' ? inCollection?.(line, t.id) === true : t.object === 'product' ? t.id === line.productId : t.id === line.skuId,
  );

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/**
 * The points `loyalty` gives for `order`:
 * - FIXED: its points;
 * - ORDER_AMOUNT: by the amount before discounts; ORDER_TOTAL_AMOUNT: by the amount after the
 *   order's last redemption's discounts (the amount when it was never redeemed);
 * - ORDER_METADATA: by the numeric metadata `property` (none when absent or not a number);
 * - ORDER_ITEMS_QUANTITY / ORDER_ITEMS_AMOUNT: by the quantity / amount (before discounts) of the
 *   lines of the rule's products, SKUs and collections (`inCollection`: the memberships read for the
 *   order; without it no line is in a collection); ORDER_ITEMS_SUBTOTAL_AMOUNT: by those lines' amount after
 *   discounts (the last redemption's line figures; the amount when it was never redeemed);
 * - CUSTOM_EVENT_METADATA: none (a custom event rule never reads an order).
 */
export function orderPointsFor(loyalty: EarningRuleLoyalty, order: EarningOrder, inCollection?: InCollection): number {
  if (loyalty.type === 'FIXED') return loyalty.points;
  switch (loyalty.calculationType) {
    case 'ORDER_AMOUNT':
      return ratioPoints(order.amount, loyalty.order.amount.every, loyalty.order.amount.points);
    case 'ORDER_TOTAL_AMOUNT': {
      const r = loyalty.order.totalAmount;
      return ratioPoints(order.calculation?.totalAmount ?? order.amount, r.every, r.points);
    }
    case 'ORDER_METADATA': {
      const { every, points, property } = loyalty.order.metadata;
      return ratioPoints(Object.hasOwn(order.metadata, property) ? order.metadata[property] : undefined, every, points);
    }
    case 'ORDER_ITEMS_QUANTITY': {
      const r = loyalty.orderItems.quantity;
      const targets = targetsOf(r);
      return ratioPoints(sum(order.items.filter((i) => itemMatches(i, targets, inCollection)).map((i) => i.quantity ?? 0)), r.every, r.points);
    }
    case 'ORDER_ITEMS_AMOUNT': {
      const r = loyalty.orderItems.amount;
      const targets = targetsOf(r);
      return ratioPoints(sum(order.items.filter((i) => itemMatches(i, targets, inCollection)).map((i) => i.amount ?? 0)), r.every, r.points);
    }
    case 'ORDER_ITEMS_SUBTOTAL_AMOUNT': {
      const r = loyalty.orderItems.subtotalAmount;
      const targets = targetsOf(r);
      const value = order.calculation
        ? sum(order.calculation.items.filter((l) => lineMatches(l, targets, inCollection)).map((l) => l.subtotalAmount))
        : sum(order.items.filter((i) => itemMatches(i, targets, inCollection)).map((i) => i.amount ?? 0));
      return ratioPoints(value, r.every, r.points);
    }
    default:
      return 0;
  }
}
