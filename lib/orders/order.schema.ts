import * as z from '../zod.js';
import { customerInput, sourceId } from '../customers/customer.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { queryInt } from '../http/query-params.js';
import { ORDER_STATUSES } from './order.js';

/** An amount, price or quantity: an integer in the smallest currency unit, never negative, exact in a double. */
const money = z.int().check(z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER));
const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

/** The product or SKU an item names inline (the reference's `items[].product` / `items[].sku`). */
const productFields = {
  id: z.optional(text(1000)),
  source_id: z.optional(text(1000)),
  override: z.optional(z.boolean()),
  price: z.optional(money),
  metadata: z.optional(metadataSchema),
};
const itemProduct = z.strictObject({ ...productFields, name: z.optional(text(1000)) });
const itemSku = z.strictObject({ ...productFields, sku: z.optional(text(1000)) });

/** One order line. `amount` may be sent, or is `price × quantity`; both sent must agree (service). */
export const orderItemInput = z.strictObject({
  sku_id: z.optional(text(1000)),
  product_id: z.optional(text(1000)),
  related_object: z.optional(z.enum(['product', 'sku'])),
  source_id: z.optional(text(1000)),
  quantity: z.optional(money.check(z.minimum(1))),
  price: z.optional(money),
  amount: z.optional(money),
  product: z.optional(itemProduct),
  sku: z.optional(itemSku),
  metadata: z.optional(metadataSchema),
});
export type OrderItemInput = z.output<typeof orderItemInput>;

/** At most 500 lines, as the reference's reply says of `items`. */
export const MAX_ORDER_ITEMS = 500;

const orderFields = {
  source_id: z.optional(sourceId),
  status: z.optional(z.enum(ORDER_STATUSES)),
  amount: z.optional(money),
  items: z.optional(z.array(orderItemInput).check(z.maxLength(MAX_ORDER_ITEMS))),
  metadata: z.optional(metadataSchema),
  customer: z.optional(customerInput),
  referrer_id: z.optional(z.nullable(text(1000))),
  /** The referrer as a customer object: upserted as `customer` is, its id becoming `referrer_id`. */
  referrer: z.optional(customerInput),
};

/**
 * POST /v1/orders: a new order, or (Voucherify's upsert) the changes to the order its `id` or an
 * existing `source_id` names.
 */
export const createOrderBody = z.strictObject({ id: z.optional(text(1000)), ...orderFields });
export type CreateOrderBody = z.output<typeof createOrderBody>;

/** PUT /v1/orders/{orderId}: the fields to change; the others stay. */
export const updateOrderBody = z.strictObject(orderFields);
export type UpdateOrderBody = z.output<typeof updateOrderBody>;

/** An order's `id` or `source_id`, as the path names it. */
export const orderParams = z.strictObject({ orderId: sourceId });

/** The orders GET /v1/orders offers (`-` = descending). */
export const ORDER_LIST_ORDERS = ['created_at', '-created_at', 'updated_at', '-updated_at'] as const;

/** GET /v1/orders. */
export const listOrdersQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 99), 1),
  order: z._default(z.enum(ORDER_LIST_ORDERS), '-created_at'),
});
export type ListOrdersQuery = z.output<typeof listOrdersQuery>;
