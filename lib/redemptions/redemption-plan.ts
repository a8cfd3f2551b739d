import type { OrderItem, OrderStatus } from '../orders/order.js';
import type { CampaignBound, CountedAs } from '../validations/redeemable-rules.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { OrderCalculation, StepCalculation } from './calculator.js';

/*
 * The hand-over between the two halves of a redemption. Validation (lib/validations) reads the
 * redeemables, checks them and runs the calculator; it never writes. What it decided to consume is
 * a RedemptionPlan, and the redemption store (lib/redemptions/redemption.repo.ts) turns a plan into
 * one TransactWriteItems whose conditions re-check, at commit time, what validation saw: a use left,
 * a balance large enough, an order unchanged. A lost race fails the whole plan with the key of the
 * redeemable that lost, and nothing is written.
 */

/** One redeemable validation found APPLICABLE, with what committing it consumes. */
export interface PlannedRedeemable {
  /** The child redemption's id (`r_…`), made by the planner so that a retry can name it. */
  redemptionId: string;
  object: 'voucher' | 'promotion_tier';
  /** The voucher's code or the promotion tier's id. */
  id: string;
  /** The voucher as validation read it (null for a promotion tier). */
  voucher: Voucher | null;
  /** The promotion tier's campaign, or the voucher's (null for a voucher of no campaign). */
  campaignId: string | null;
  campaignName: string | null;
  /**
   * The voucher's redemption limit as read: a number means the commit must take one of the uses
   * left (`redeemedQuantity < limit` at commit), null means no limit (the commit must not serialise
   * on one item: see the counter design in docs/architecture.md).
   */
  quantityLimit: number | null;
  /** Gift credits this redemption takes from the card's balance (0 for other redeemables). */
  giftCredits: number;
  /** Loyalty points it takes (0 until rewards are redeemable). */
  loyaltyPoints: number;
  /** The order after this redeemable, and what it alone took off (the calculator's step). */
  step: StepCalculation;
  /** A LOCK session's reservation this redemption consumes instead of a free use, when the request names one. */
  sessionKey: string | null;
  /**
   * The customer's counts of this redeemable and its campaign that its validation rules compared
   * (lib/validations/redeemable-rules.ts): the commit holds them unchanged, so a per-customer limit
   * stays exact under concurrency. Absent or null: no rule counted.
   */
  countedAs?: CountedAs | null;
  /**
   * The bound its validation rules put on its campaign's redemption count (`campaign.redemptions.count`):
   * the commit ADDs to the campaign's exact count shard on condition that it is within the bound, so a
   * campaign-wide limit stays exact under concurrency. Absent or null: the commit counts on a random shard.
   */
  campaignBound?: CampaignBound | null;
}

/** The order a redemption writes: the stored one named by id/source_id (held on its revision), or a new one. */
export interface PlannedOrder {
  /** `ord_…`: the stored order's id, or a new id. */
  id: string;
  sourceId: string | null;
  /** The revision read; null when the order is new (the commit then requires that it does not exist). */
  expectedRevision: number | null;
  status: OrderStatus;
  metadata: Record<string, unknown>;
  /** The order's lines as stored (lib/orders/order.ts OrderItem), unchanged by the discounts. */
  items: OrderItem[];
  /** The figures after every planned redeemable (the calculator's final order). */
  calculation: OrderCalculation;
  customerId: string | null;
  referrerId: string | null;
}

export interface RedemptionPlan {
  projectId: string;
  /** The parent redemption's id (`r_…`): every stacked redemption has one, as the reference's replies do. */
  parentRedemptionId: string;
  /** ISO time of the redemption (the runtime's clock). */
  date: string;
  /** The customer named by the request (upserted before planning), or null. */
  customer: { id: string; sourceId: string | null } | null;
  trackingId: string | null;
  metadata: Record<string, unknown>;
  order: PlannedOrder;
  /** In stacking order; 1–30 (the reference's limit). */
  redeemables: PlannedRedeemable[];
}
