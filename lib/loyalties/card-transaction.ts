/**
 * Voucherify's voucher transaction types this service records: every change of a loyalty card's
 * points (LoyaltyCardTransactionsType) and the manual changes of a gift card's credits.
 */
export type CardTransactionType =
  | 'PENDING_POINTS_ACTIVATION'
  | 'POINTS_ACCRUAL'
  | 'POINTS_REDEMPTION'
  | 'POINTS_REFUND'
  | 'POINTS_ADDITION'
  | 'POINTS_REMOVAL'
  | 'POINTS_EXPIRATION'
  | 'POINTS_TRANSFER_IN'
  | 'POINTS_TRANSFER_OUT'
  | 'CREDITS_ADDITION'
  | 'CREDITS_REMOVAL';

/** Every loyalty card transaction type, in the reference's order (reply schemas list them). */
export const POINTS_TRANSACTION_TYPES = [
  'PENDING_POINTS_ACTIVATION',
  'POINTS_ACCRUAL',
  'POINTS_REDEMPTION',
  'POINTS_REFUND',
  'POINTS_ADDITION',
  'POINTS_REMOVAL',
  'POINTS_EXPIRATION',
  'POINTS_TRANSFER_IN',
  'POINTS_TRANSFER_OUT',
] as const satisfies readonly CardTransactionType[];

/** The types a caller asks for by hand (the balance endpoints): their balance's `operation_type` is MANUAL, every other AUTOMATIC. */
export const MANUAL_TRANSACTION_TYPES: readonly CardTransactionType[] = ['POINTS_ADDITION', 'POINTS_REMOVAL', 'CREDITS_ADDITION', 'CREDITS_REMOVAL'];

/**
 * What a transaction concerns besides its balance (Voucherify's LoyaltyCardTransaction `details`):
 * the event and earning rule of an accrual, the order, redemption, rollback or reward of a
 * redemption or refund. Each is set only where it applies.
 */
export interface CardTransactionDetails {
  /** The event that caused the change (`type`: `customer.custom_event` for a custom event). */
  event?: { id: string; type: string };
  /** The custom event itself (its name as `type`) and its schema. */
  customEvent?: { id: string; type: string };
  eventSchema?: { id: string; name: string };
  earningRule?: { id: string; source: { banner: string } };
  order?: { id: string; sourceId: string | null };
  redemption?: { id: string };
  rollback?: { id: string };
  reward?: { id: string; name: string };
}

/** One change of a card's points with what the caller said about it; written with the change. */
export interface CardTransaction {
  /** `vtx_...`, Voucherify's prefix for voucher transactions. */
  id: string;
  projectId: string;
  /** Null for a voucher of no campaign (a standalone gift card). */
  campaignId: string | null;
  voucherId: string;
  type: CardTransactionType;
  /** `API` for a change through the balance endpoints; null for one the service made (earning, rewards). */
  source: 'API' | null;
  /** The caller's `source_id` (its own id of the change) and `reason`, as sent; null when absent. */
  sourceId: string | null;
  reason: string | null;
  /** Points (a loyalty card) or credits (a gift card) added (positive) or removed (negative). */
  points: number;
  /** The card's lifetime points (credits) and spendable balance right after the change. */
  total: number;
  balance: number;
  /** What the change concerns; absent on manual changes and on transactions stored before it existed. */
  details?: CardTransactionDetails;
  /** The transaction this one undoes or mirrors (a refund's redemption, a transfer's other side); absent when none. */
  relatedTransactionId?: string | null;
  createdAt: string;
}

/**
 * The `total` and `balance` after each of several changes of one card committed together, given
 * the card's counters after all of them: the last change sees the final counters, each earlier
 * one the counters less the points of the changes after it.
 */
export function runningCounters(points: readonly number[], final: { total: number; balance: number }): { total: number; balance: number }[] {
  const out: { total: number; balance: number }[] = [];
  let total = final.total;
  let balance = final.balance;
  for (let i = points.length - 1; i >= 0; i -= 1) {
    out[i] = { total, balance };
    const p = points[i] ?? 0;
    total -= Math.max(p, 0);
    balance -= p;
  }
  return out;
}
