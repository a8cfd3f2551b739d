import type { Campaign, PromotionTier } from '../campaigns/campaign.js';
import type { Category } from '../categories/category.js';
import type { OrderItem, OrderStatus } from '../orders/order.js';
import type { OrderCalculation, StepCalculation } from '../redemptions/calculator.js';
import type { SessionTtlUnit } from '../redemptions/session-lock.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { CoveredLine } from '../redemptions/discount.js';
import type { RedeemableErrorKey } from './redeemable-error.js';
import type { CampaignBound, CountedAs } from './redeemable-rules.js';
import type { SkipKey, StackingRules } from './stacking-rules.js';

/*
 * The outcome of evaluating a stacked request (lib/validations/validation.service.ts
 * evaluateRedeemables): what was read, what each redeemable's verdict is, and the figures. Shared by
 * validation (which replies with it) and redemption (which turns it into a RedemptionPlan).
 */

export type RedeemableStatus = 'APPLICABLE' | 'INAPPLICABLE' | 'SKIPPED';

/** One redeemable of the request, evaluated. */
export interface EvaluatedRedeemable {
  /** The object as the reply names it: a gift card is a `voucher`. */
  object: 'voucher' | 'promotion_tier';
  /** The object as the request named it. */
  requested: 'voucher' | 'promotion_tier' | 'gift_card';
  /** Voucher code or promotion tier id, as sent. */
  id: string;
  /** Its place in the request (0-based). */
  position: number;
  status: RedeemableStatus;
  /** Set when INAPPLICABLE. */
  errorKey: RedeemableErrorKey | null;
  /** Set when SKIPPED. */
  skipKey: SkipKey | null;
  /** The voucher read (null for a tier, or one not found). */
  voucher: Voucher | null;
  /** The promotion tier read (null for a voucher, or one not found). */
  tier: PromotionTier | null;
  /** The voucher's or tier's campaign, as read (null for a standalone voucher, or not found). */
  campaign: Campaign | null;
  /** Its categories (the voucher's own, else its campaign's). */
  categories: Category[];
  /** Gift credits asked for (`gift.credits`), when sent. */
  giftCreditsAsked: number | null;
  /** The calculator's step for an APPLICABLE redeemable (null otherwise). */
  step: StepCalculation | null;
  /** The order lines (and units) an item effect covers under its validation rules' `applicable_to` (all lines: null). */
  lines: CoveredLine[] | null;
  /** The failing validation rule's `error.message` when a rule made it INAPPLICABLE (null: none, or the standard text). */
  ruleMessage: string | null;
  /** The customer's counts its rules compared (a redemption's commit conditions on them); null when no rule counts. */
  countedAs: CountedAs | null;
  /** The bound its rules put on its campaign's redemption count (a redemption's commit holds the campaign's exact shard to it); null when none. */
  campaignBound: CampaignBound | null;
}

/** The order the request is evaluated on: a stored one (named by id / source_id, with the fields sent applied), or an inline one. */
export interface EvaluatedOrder {
  /** The stored order's id; null for an order not stored yet. */
  id: string | null;
  sourceId: string | null;
  /** The stored order's revision as read; null for a new order. */
  revision: number | null;
  status: OrderStatus;
  amount: number;
  items: OrderItem[];
  metadata: Record<string, unknown>;
  customerId: string | null;
  referrerId: string | null;
  createdAt: string | null;
}

/** The request's LOCK session, validated (validation echoes it; holds are written by the session slice). */
export interface EvaluatedSession {
  type: 'LOCK';
  /** As sent, or made for the request (`ssn_…`). */
  key: string;
  ttl: number;
  ttlUnit: SessionTtlUnit;
  /** Lifetime in milliseconds (lib/redemptions/session-lock.ts sessionTtlMs). */
  ttlMs: number;
}

export interface Evaluation {
  projectId: string;
  /** The clock's time of the evaluation (ISO). */
  date: string;
  rules: StackingRules;
  /** In application order (the stacking rules' sorting rule). */
  redeemables: EvaluatedRedeemable[];
  order: EvaluatedOrder;
  /** The figures after every APPLICABLE redeemable. */
  calculation: OrderCalculation;
  /** The customer the request named, as read (never created by a validation); null when none or unknown. */
  customer: { id: string; sourceId: string | null } | null;
  session: EvaluatedSession | null;
  trackingId: string | null;
  metadata: Record<string, unknown>;
  valid: boolean;
}
