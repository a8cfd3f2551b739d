import type { OrderCalculation } from '../redemptions/calculator.js';

/** The statuses an order moves through (Voucherify's enum); a new order is CREATED unless sent. */
export const ORDER_STATUSES = ['CREATED', 'PAID', 'CANCELED', 'FULFILLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A product or SKU as an order item names it inline (stored as sent; no product catalogue exists yet). */
export interface OrderItemProduct {
  id?: string;
  sourceId?: string;
  override?: boolean;
  name?: string;
  sku?: string;
  price?: number;
  metadata?: Record<string, unknown>;
}

/** One line of an order. Amounts are integers in the smallest currency unit. */
export interface OrderItem {
  sourceId: string | null;
  productId: string | null;
  skuId: string | null;
  relatedObject: 'product' | 'sku' | null;
  quantity: number | null;
  price: number | null;
  /** `price × quantity`, or the `amount` sent; null when neither gives it. */
  amount: number | null;
  product: OrderItemProduct | null;
  sku: OrderItemProduct | null;
  metadata: Record<string, unknown> | null;
}

/** An order (`ord_...`), known by its id and, when sent, the merchant's `sourceId` (unique per project). */
export interface Order {
  id: string;
  projectId: string;
  sourceId: string | null;
  status: OrderStatus;
  /** The order's amount before discounts: as sent, or the sum of its items' amounts. */
  amount: number;
  items: OrderItem[];
  metadata: Record<string, unknown>;
  customerId: string | null;
  referrerId: string | null;
  createdAt: string;
  updatedAt: string | null;
  /** Optimistic lock: every write raises it and holds only if it read the current one. */
  revision: number;
  /** The figures after its last redemption (lib/redemptions/redemption.repo.ts); absent until redeemed. */
  calculation?: OrderCalculation;
  /** Its redemptions by parent redemption id (the reference's `redemptions` map); absent = none. */
  redemptions?: Record<string, OrderRedemption>;
}

/** One redemption of an order: when, which parent and children, and the rollback that undid it. */
export interface OrderRedemption {
  date: string;
  relatedObjectType: 'redemption';
  relatedObjectId: string;
  stacked: string[];
  rollbackId: string | null;
  rollbackDate: string | null;
}

/** An order's entry in the project's list: its sort keys (creation, last change) and nothing else. */
export interface OrderListEntry {
  orderId: string;
  createdAt: string;
  updatedAt: string | null;
}

/** Shards of the project's order count: concurrent creates spread their `ADD`s over them. */
export const ORDER_COUNT_SHARDS = 8;

/** The count shard an order's creation adds to (a stable hash of its id). */
export function orderCountShardOf(orderId: string): number {
  let h = 0;
  for (const ch of orderId) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % ORDER_COUNT_SHARDS;
}
