import { InvalidPayloadError } from '../errors.js';
import type { OrderItem, OrderItemProduct } from './order.js';
import type { OrderItemInput } from './order.schema.js';

/*
 * The order's figures before any discount, from what a request sends: pure, no I/O. Amounts are
 * integers in the smallest currency unit; a product or sum beyond 2^53 - 1 would lose cents, so it
 * is refused rather than rounded.
 */

type ProductInput = NonNullable<OrderItemInput['product']> | NonNullable<OrderItemInput['sku']>;

function productOf(p: ProductInput): OrderItemProduct {
  return {
    ...(p.id !== undefined ? { id: p.id } : {}),
    ...(p.source_id !== undefined ? { sourceId: p.source_id } : {}),
    ...(p.override !== undefined ? { override: p.override } : {}),
    ...('name' in p && p.name !== undefined ? { name: p.name } : {}),
    ...('sku' in p && p.sku !== undefined ? { sku: p.sku } : {}),
    ...(p.price !== undefined ? { price: p.price } : {}),
    ...(p.metadata !== undefined ? { metadata: p.metadata } : {}),
  };
}

/**
 * One order line as stored. Its amount is the `amount` sent, else `price × quantity` (null when
 * neither gives it). Both sent must agree.
 * @throws InvalidPayloadError naming `.items[index].amount` when they disagree, or when
 *   `price × quantity` is beyond 2^53 - 1.
 */
export function orderItemOf(input: OrderItemInput, index: number): OrderItem {
  const { price, quantity } = input;
  const product = price !== undefined && quantity !== undefined ? price * quantity : undefined;
  if (product !== undefined && !Number.isSafeInteger(product)) {
    throw new InvalidPayloadError(`Property .items.${index}.price × .items.${index}.quantity must not exceed ${Number.MAX_SAFE_INTEGER}`);
  }
  if (input.amount !== undefined && product !== undefined && input.amount !== product) {
    throw new InvalidPayloadError(`Property .items.${index}.amount must equal price × quantity (${price} × ${quantity} = ${product}), or be sent without them`);
  }
  return {
    sourceId: input.source_id ?? null,
    productId: input.product_id ?? null,
    skuId: input.sku_id ?? null,
    relatedObject: input.related_object ?? null,
    quantity: quantity ?? null,
    price: price ?? null,
    amount: input.amount ?? product ?? null,
    product: input.product ? productOf(input.product) : null,
    sku: input.sku ? productOf(input.sku) : null,
    metadata: input.metadata ?? null,
  };
}

/**
 * The sum of the lines' amounts (lines without one count 0).
 * @throws InvalidPayloadError when the sum is beyond 2^53 - 1.
 */
export function itemsAmount(items: readonly OrderItem[]): number {
  const sum = items.reduce((total, item) => total + (item.amount ?? 0), 0);
  if (!Number.isSafeInteger(sum)) throw new InvalidPayloadError(`Property .items: the sum of the items' amounts must not exceed ${Number.MAX_SAFE_INTEGER}`);
  return sum;
}

/** The order's figures before discounts (OrderCalculated with no redemption applied). */
export interface OrderFigures {
  amount: number;
  initialAmount: number;
  discountAmount: number;
  itemsDiscountAmount: number;
  totalDiscountAmount: number;
  totalAmount: number;
  appliedDiscountAmount: number;
  itemsAppliedDiscountAmount: number;
  totalAppliedDiscountAmount: number;
}

/** With no discounts: every discount 0 and `total_amount = initial_amount = amount`. */
export function undiscountedFigures(amount: number): OrderFigures {
  return {
    amount,
    initialAmount: amount,
    discountAmount: 0,
    itemsDiscountAmount: 0,
    totalDiscountAmount: 0,
    totalAmount: amount,
    appliedDiscountAmount: 0,
    itemsAppliedDiscountAmount: 0,
    totalAppliedDiscountAmount: 0,
  };
}
