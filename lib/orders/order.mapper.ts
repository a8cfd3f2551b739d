import type * as z from '../zod.js';
import type { Order, OrderItem, OrderItemProduct } from './order.js';
import { type OrderFigures, undiscountedFigures } from './order-lines.js';
import type { orderListReplySchema, orderReplySchema } from './order.reply.js';
import type { OrderPage } from './order.service.js';

type OrderReply = z.input<typeof orderReplySchema>;
type ItemReply = OrderReply['items'][number];

/** An order line's `product` or `sku` on the wire (a product has no `sku`, a SKU no `name`). */
export const lineObjectReply = (p: OrderItemProduct) => ({
  ...(p.id !== undefined ? { id: p.id } : {}),
  ...(p.sourceId !== undefined ? { source_id: p.sourceId } : {}),
  ...(p.override !== undefined ? { override: p.override } : {}),
  ...(p.name !== undefined ? { name: p.name } : {}),
  ...(p.sku !== undefined ? { sku: p.sku } : {}),
  ...(p.price !== undefined ? { price: p.price } : {}),
  ...(p.metadata !== undefined ? { metadata: p.metadata } : {}),
});

/** A line's discount figures after the order's last redemption (none: no discount). */
interface LineDiscount {
  discountAmount: number;
  subtotalAmount: number;
}

/** One line (OrderCalculatedItem): with no discount yet, its subtotal is its amount. */
const toItemReply = (i: OrderItem, d?: LineDiscount): ItemReply => ({
  ...(i.skuId !== null ? { sku_id: i.skuId } : {}),
  ...(i.productId !== null ? { product_id: i.productId } : {}),
  ...(i.relatedObject !== null ? { related_object: i.relatedObject } : {}),
  ...(i.sourceId !== null ? { source_id: i.sourceId } : {}),
  ...(i.quantity !== null ? { quantity: i.quantity, initial_quantity: i.quantity } : {}),
  ...(i.amount !== null ? { amount: i.amount, initial_amount: i.amount, subtotal_amount: d ? d.subtotalAmount : i.amount } : {}),
  discount_amount: d ? d.discountAmount : 0,
  applied_discount_amount: 0,
  ...(i.price !== null ? { price: i.price } : {}),
  ...(i.product !== null ? { product: lineObjectReply(i.product) } : {}),
  ...(i.sku !== null ? { sku: lineObjectReply(i.sku) } : {}),
  ...(i.metadata !== null ? { metadata: i.metadata } : {}),
  object: 'order_item',
});

/** The figures of OrderCalculated on the wire (every reply that shows an order's figures). */
export interface OrderFiguresReply {
  amount: number;
  initial_amount: number;
  discount_amount: number;
  items_discount_amount: number;
  total_discount_amount: number;
  total_amount: number;
  applied_discount_amount: number;
  items_applied_discount_amount: number;
  total_applied_discount_amount: number;
}

/** Writes the figures into `out`, in the wire's order, and returns it (a reply built field by field: see toCalculatedOrderReply). */
export function writeOrderFigures<T extends object>(out: T, f: OrderFigures): T & OrderFiguresReply {
  const o = out as T & OrderFiguresReply;
  o.amount = f.amount;
  o.initial_amount = f.initialAmount;
  o.discount_amount = f.discountAmount;
  o.items_discount_amount = f.itemsDiscountAmount;
  o.total_discount_amount = f.totalDiscountAmount;
  o.total_amount = f.totalAmount;
  o.applied_discount_amount = f.appliedDiscountAmount;
  o.items_applied_discount_amount = f.itemsAppliedDiscountAmount;
  o.total_applied_discount_amount = f.totalAppliedDiscountAmount;
  return o;
}

export const orderFiguresOf = (f: OrderFigures): OrderFiguresReply => writeOrderFigures({}, f);

/** The order object (OrderCalculated with its items). */
export function toOrderReply(o: Order): OrderReply {
  // After a redemption: its figures (lib/redemptions/redemption.repo.ts), `applied_*` 0 (they count one request only).
  const c = o.calculation;
  const f = c ? { ...c, appliedDiscountAmount: 0, itemsAppliedDiscountAmount: 0, totalAppliedDiscountAmount: 0 } : undiscountedFigures(o.amount);
  const redemptions = Object.entries(o.redemptions ?? {});
  return {
    id: o.id,
    source_id: o.sourceId,
    status: o.status,
    ...orderFiguresOf(f),
    items: o.items.map((item, n) => toItemReply(item, c?.items[n])),
    metadata: o.metadata,
    ...(o.customerId !== null ? { customer: { id: o.customerId, object: 'customer' as const } } : {}),
    customer_id: o.customerId,
    referrer_id: o.referrerId,
    // Left out while the order has none, as the reference's create and update examples leave it out.
    ...(redemptions.length > 0
      ? {
          redemptions: Object.fromEntries(
            redemptions.map(([id, r]) => [
              id,
              {
                date: r.date,
                ...(r.rollbackId !== null ? { rollback_id: r.rollbackId, rollback_date: r.rollbackDate } : {}),
                related_object_type: r.relatedObjectType,
                related_object_id: r.relatedObjectId,
                stacked: r.stacked,
              },
            ]),
          ),
        }
      : {}),
    created_at: o.createdAt,
    updated_at: o.updatedAt,
    object: 'order',
  };
}

/** One page of the order list. */
export const toOrderListReply = (page: OrderPage): z.input<typeof orderListReplySchema> => ({
  object: 'list',
  data_ref: 'orders',
  orders: page.orders.map(toOrderReply),
  total: page.total,
  has_more: page.hasMore,
});
