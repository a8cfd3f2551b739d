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
  /**
   * Set by the write that moved the order to PAID or CANCELED (the time of that write): the loyalty
   * effects of that move (earning, or taking back what was earned) are due. The request that wrote
   * it runs them right after its commit; the order loyalty sweep runs them again for any order still
   * marked a while later (a request that died after its commit) and clears the mark. Absent: nothing due.
   */
  loyaltyDueAt?: string;
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

/** The statuses whose arrival has loyalty effects: PAID earns (order.paid rules), CANCELED takes back what was earned. */
const LOYALTY_STATUSES: ReadonlySet<OrderStatus> = new Set(['PAID', 'CANCELED']);

/**
 * The order `after` as its write stores it: marked `loyaltyDueAt = at` when the write moves it
 * (from `before`; null: a new order) into PAID or CANCELED, else carrying whatever mark it had.
 */
export function markLoyaltyDue(before: Pick<Order, 'status'> | null, after: Order, at: string): Order {
  const moved = before === null || before.status !== after.status;
  return moved && LOYALTY_STATUSES.has(after.status) ? { ...after, loyaltyDueAt: at } : after;
}

/** Shards of the order loyalty sweep's index (sparse GSI2): marked orders spread over them by id. */
export const ORDER_LOYALTY_SHARDS = 8;

/** Shards of the project's order count: concurrent creates spread their `ADD`s over them. */
export const ORDER_COUNT_SHARDS = 8;

const hashOf = (orderId: string): number => {
  let h = 0;
  for (const ch of orderId) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
};

/** The count shard an order's creation adds to (a stable hash of its id). */
export function orderCountShardOf(orderId: string): number {
  return hashOf(orderId) % ORDER_COUNT_SHARDS;
}

/** The sweep index shard of a marked order (the same hash). */
export function orderLoyaltyShardOf(orderId: string): number {
  return hashOf(orderId) % ORDER_LOYALTY_SHARDS;
}
