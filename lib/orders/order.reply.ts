import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { ORDER_STATUSES } from './order.js';

/*
 * Reply schemas of the order objects (lib/orders/order.mapper.ts writes these shapes).
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const dateTimeReply = z.iso.datetime();
const amount = z.int().check(z.nonnegative());
const metadata = z.record(z.string(), z.unknown());

/** An order line's `product` (lines of orders and of validation replies). */
export const productReply = z.strictObject({
  id: z.optional(z.string()),
  source_id: z.optional(z.string()),
  override: z.optional(z.boolean()),
  name: z.optional(z.string()),
  price: z.optional(amount),
  metadata: z.optional(metadata),
});
/** An order line's `sku`. */
export const skuReply = z.strictObject({
  id: z.optional(z.string()),
  source_id: z.optional(z.string()),
  override: z.optional(z.boolean()),
  sku: z.optional(z.string()),
  price: z.optional(amount),
  metadata: z.optional(metadata),
});

/** One order line (Voucherify's OrderCalculatedItem): fields the line has no value for are left out. */
export const orderItemReplySchema = z.strictObject({
  sku_id: z.optional(z.string()),
  product_id: z.optional(z.string()),
  related_object: z.optional(z.enum(['product', 'sku'])),
  source_id: z.optional(z.string()),
  quantity: z.optional(amount),
  initial_quantity: z.optional(amount),
  amount: z.optional(amount),
  initial_amount: z.optional(amount),
  discount_amount: amount,
  applied_discount_amount: amount,
  subtotal_amount: z.optional(amount),
  price: z.optional(amount),
  product: z.optional(productReply),
  sku: z.optional(skuReply),
  metadata: z.optional(metadata),
  object: z.literal('order_item'),
});

/** The figures of OrderCalculated, shared by every reply that shows an order's figures (orders, validations, redemptions). */
export const orderFiguresReplyFields = {
  amount,
  initial_amount: amount,
  discount_amount: amount,
  items_discount_amount: amount,
  total_discount_amount: amount,
  total_amount: amount,
  applied_discount_amount: amount,
  items_applied_discount_amount: amount,
  total_applied_discount_amount: amount,
};

/**
 * The order object (Voucherify's OrderCalculated with its items). With no redemption applied yet,
 * every discount is 0 and `total_amount = initial_amount = amount`. `customer` and `customer_id`
 * appear once the order has a customer; `updated_at` once it has changed; `redemptions` once one
 * was applied.
 */
export const orderReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^ord_/)),
  source_id: z.nullable(z.string()),
  status: z.enum(ORDER_STATUSES),
  ...orderFiguresReplyFields,
  items: z.array(orderItemReplySchema),
  metadata,
  customer: z.optional(z.strictObject({ id: z.string(), object: z.literal('customer') })),
  customer_id: z.nullable(z.string()),
  referrer_id: z.nullable(z.string()),
  redemptions: z.optional(
    z
      .record(z.string(), z.unknown())
      .check(
        z.describe(
          'The redemptions applied to the order, by parent redemption id: date, stacked redemption ids, and the rollback once rolled back. Left out while there are none.',
        ),
      ),
  ),
  created_at: dateTimeReply,
  updated_at: z.nullable(dateTimeReply),
  object: z.literal('order'),
});

/** GET /v1/orders (Voucherify's OrdersListResponseBody). */
export const orderListReplySchema = listReply(orderReplySchema, {
  dataRef: 'orders',
  total: "The number of the project's orders (kept as a count, not counted per request).",
  hasMore: 'Whether more orders follow this page in its order.',
});
