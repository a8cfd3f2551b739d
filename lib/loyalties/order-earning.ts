/**
 * Whether an order's points are still on the card, or were taken back when the order was
 * cancelled; a rule with pending points holds them first (PENDING: not on the card yet), then
 * EARNED once activated, or CANCELED when the entry is cancelled before (docs/decisions.md "Pending points").
 */
export type OrderEarningStatus = 'EARNED' | 'TAKEN_BACK' | 'PENDING' | 'CANCELED';

/** What one `order.paid` rule gave one loyalty card for one order; once per (order, card, rule). */
export interface OrderEarning {
  projectId: string;
  orderId: string;
  voucherId: string;
  /** The card's code (the key its changes are written under). */
  code: string;
  campaignId: string;
  ruleId: string;
  /** The rule's `source.banner` when it earned ('' when none), named again by the take-back's transaction. */
  banner: string;
  points: number;
  /** The bucket holding the points and the POINTS_ACCRUAL transaction recording them. */
  bucketId: string;
  transactionId: string;
  status: OrderEarningStatus;
  /** Points the take-back removed (at most `points`, never more than the card held); null until taken back. */
  takenBackPoints: number | null;
  /**
   * Points the take-back could not remove (already spent or expired): `points - takenBackPoints`,
   * also stated in the POINTS_REMOVAL's `reason`. Null until taken back (or a card deleted
   * meanwhile); absent on entries taken back before it was recorded.
   */
  shortfallPoints?: number | null;
  /** The POINTS_REMOVAL transaction of the take-back (written even when it removed 0 points); null until taken back, or when the card was deleted. */
  takeBackTransactionId: string | null;
  /** The pending points entry (`lopp_…`) holding the points while PENDING; absent when the rule earned at once. */
  pendingPointsId?: string;
  createdAt: string;
  updatedAt: string;
}

/** Rules one commit of one card carries: 3 items each (marker, bucket, transaction) + the card + expiry moves ≤ 100. */
export const MAX_EARNINGS_PER_COMMIT = 30;

/**
 * How a take-back of `available` spendable points splits over an order's earnings of one card:
 * each takes back what it gave, in the order given, while points are left (never below zero).
 */
export function takeBackShares(earned: readonly number[], available: number): number[] {
  let left = Math.max(0, available);
  return earned.map((points) => {
    const take = Math.min(Math.max(points, 0), left);
    left -= take;
    return take;
  });
}

/** `details.event.type` of an order's accrual and of its pending entries (the reference's customer event name). */
export const ORDER_PAID_EVENT_TYPE = 'customer.order.paid';

/** An earning's identity within its order: once per (card, rule). */
export const earningKey = (voucherId: string, ruleId: string): string => `${voucherId}#${ruleId}`;
