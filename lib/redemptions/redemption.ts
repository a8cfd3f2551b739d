import type { OrderStatus } from '../orders/order.js';
import type { RewardGiven } from '../loyalties/reward-redemption.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { OrderCalculation } from './calculator.js';
import type { RedemptionPlan } from './redemption-plan.js';

/*
 * Redemptions as stored: a parent per stacked redemption, a child per redeemable it consumed, and
 * `redemption_rollback` records. One entity holds the three (lib/db/entities.ts `redemption`), told
 * apart by `object` and `relatedObjectType`, so GET /v1/redemptions/{id} reads any of them by one key
 * and the lists interleave them by date, as the reference's lists do.
 */

export type RedemptionObject = 'redemption' | 'redemption_rollback';
export type RedemptionStatus = 'SUCCEEDED' | 'FAILED' | 'ROLLED_BACK';
export type RedemptionResult = 'SUCCESS' | 'FAILURE';
export type RelatedObjectType = 'voucher' | 'promotion_tier' | 'redemption';

/** How a voucher's use was counted, so a rollback gives it back the same way. */
export type UseCounter =
  /** No counter (a promotion tier). */
  | { kind: 'none' }
  /** The voucher item's exact `redeemedQuantity` (a voucher with a redemption limit). */
  | { kind: 'limit' }
  /** One shard of `voucher_redemption_count` (a voucher without a limit). */
  | { kind: 'shard'; shard: number };

/** The order figures a redemption records: the order as it stood after this redemption (or rollback). */
export interface RedemptionOrder {
  id: string;
  sourceId: string | null;
  status: OrderStatus;
  metadata: Record<string, unknown>;
  customerId: string | null;
  referrerId: string | null;
  calculation: OrderCalculation;
}

export interface Redemption {
  id: string;
  projectId: string;
  object: RedemptionObject;
  date: string;
  customerId: string | null;
  customerSourceId: string | null;
  trackingId: string | null;
  metadata: Record<string, unknown>;
  /** What this redemption took off the order (a gift card: the credits); a rollback: the same, given back. */
  amount: number;
  /** A child's parent redemption; a rollback's redemption rolled back; null on a parent. */
  redemption: string | null;
  result: RedemptionResult;
  status: RedemptionStatus;
  relatedObjectType: RelatedObjectType;
  relatedObjectId: string;
  /** The voucher as redeemed (without its session holds), on a child or rollback of a voucher. */
  voucher: Voucher | null;
  promotionTierId: string | null;
  campaignId: string | null;
  campaignName: string | null;
  giftCredits: number;
  loyaltyPoints: number;
  counter: UseCounter;
  order: RedemptionOrder | null;
  /** A parent's children (a parent rollback's child rollbacks), in stacking order. */
  childIds: string[];
  /** The rollback that undid this redemption, once rolled back. */
  rollbackId: string | null;
  /** A rollback's reason. */
  reason: string | null;
  /** The LOCK session a child consumed, if any. */
  sessionKey: string | null;
  /** A reward redemption's reward (lib/loyalties/reward-redemption.ts): the loyalty card paid `loyaltyPoints` for it. */
  reward?: RewardGiven | null;
  /**
   * Where a child counted its campaign's redemption (`campaign.redemptions.count`), so a rollback gives
   * it back there: `exact` on the campaign's exact shard (a rule bounded the count); absent on a random shard.
   */
  campaignCounter?: 'exact';
}

/** Shards of a limitless voucher's use count (docs/architecture.md "The counter design"). */
export const REDEMPTION_COUNT_SHARDS = 32;

/** A shard for one use: chosen at random, so concurrent redemptions of one code spread over the shards. */
export const pickShard = (random: () => number = Math.random): number => Math.min(REDEMPTION_COUNT_SHARDS - 1, Math.floor(random() * REDEMPTION_COUNT_SHARDS));

/** The fields of `filters[…]` (Voucherify's ParameterFiltersListRedemptions); here, not in
 * redemption.schema.ts, so the redeem handlers that reach listRedemptions' module need not bundle its schemas. */
export const REDEMPTION_FILTER_FIELDS = [
  'voucher_code',
  'related_object_id',
  'related_object_parent_id',
  'parent_redemption_id',
  'failure_code',
  'result',
  'object',
  'customer_id',
  'campaign_name',
  'user_login',
] as const;
export type RedemptionFilterField = (typeof REDEMPTION_FILTER_FIELDS)[number];

/** The reference's largest number of redeemables in one request. */
export const MAX_REDEEMABLES = 30;

/**
 * The items one commit of `plan` writes (docs/architecture.md "The redemption write"): per voucher,
 * its item when it has a limit, a gift balance or a session hold to consume, and a count shard when
 * it has no limit; a child per redeemable; the parent; the order (and, for a new order, its source
 * id claim, list entry and count shard; for a stored one its list entry); the idempotency record.
 */
export function transactionBudget(plan: RedemptionPlan, withIdempotency: boolean): number {
  let n = 1;
  for (const r of plan.redeemables) {
    n += 1;
    if (r.object !== 'voucher') continue;
    if (r.quantityLimit !== null || r.giftCredits > 0 || r.sessionKey !== null) n += 1;
    // The session's own hold item, consumed.
    if (r.sessionKey !== null) n += 1;
    if (r.quantityLimit === null) n += 1;
  }
  n += plan.order.expectedRevision === null ? 3 + (plan.order.sourceId !== null ? 1 : 0) : 2;
  // The customer's redemption totals and a count item per object it redeemed (voucher or tier, and campaign); per campaign, its
  // condition, one count shard and one summary counter.
  if (plan.customer) {
    const objects = plan.redeemables.flatMap((r) => [r.object === 'voucher' ? (r.voucher?.id ?? r.id) : r.id, ...(r.campaignId ? [r.campaignId] : [])]);
    n += 1 + new Set(objects).size;
  }
  n += 3 * new Set(plan.redeemables.flatMap((r) => (r.campaignId ? [r.campaignId] : []))).size;
  return n + (withIdempotency ? 1 : 0);
}

/** The voucher as a redemption keeps it: session holds are the voucher's working state, not the redemption's. */
export function voucherSnapshot(v: Voucher): Voucher {
  const { sessions: _sessions, sessionsRevision: _revision, sessionsUntil: _until, ...rest } = v;
  return rest;
}
