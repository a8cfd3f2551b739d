/** Voucherify's loyalty card transaction types this service records (manual balance changes). */
export type CardTransactionType = 'POINTS_ADDITION' | 'POINTS_REMOVAL';

/** One change of a card's points with what the caller said about it; written with the change. */
export interface CardTransaction {
  /** `vtx_...`, Voucherify's prefix for voucher transactions. */
  id: string;
  projectId: string;
  campaignId: string;
  voucherId: string;
  type: CardTransactionType;
  /** Always `API`: the change came through the balance endpoint. */
  source: 'API';
  /** The caller's `source_id` (its own id of the change) and `reason`, as sent; null when absent. */
  sourceId: string | null;
  reason: string | null;
  /** Points added (positive) or removed (negative). */
  points: number;
  /** The card's lifetime points and spendable balance right after the change. */
  total: number;
  balance: number;
  createdAt: string;
}
