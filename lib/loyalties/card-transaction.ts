/** Voucherify's voucher transaction types this service records (manual changes, reward redemptions and their refunds). */
export type CardTransactionType = 'POINTS_ADDITION' | 'POINTS_REMOVAL' | 'POINTS_REDEMPTION' | 'POINTS_REFUND' | 'CREDITS_ADDITION' | 'CREDITS_REMOVAL';

/** One change of a card's points with what the caller said about it; written with the change. */
export interface CardTransaction {
  /** `vtx_...`, Voucherify's prefix for voucher transactions. */
  id: string;
  projectId: string;
  /** Null for a voucher of no campaign (a standalone gift card). */
  campaignId: string | null;
  voucherId: string;
  type: CardTransactionType;
  /** Always `API`: the change came through the balance endpoint. */
  source: 'API';
  /** The caller's `source_id` (its own id of the change) and `reason`, as sent; null when absent. */
  sourceId: string | null;
  reason: string | null;
  /** Points (a loyalty card) or credits (a gift card) added (positive) or removed (negative). */
  points: number;
  /** The card's lifetime points (credits) and spendable balance right after the change. */
  total: number;
  balance: number;
  createdAt: string;
}
