import { orderFiguresOf } from '../orders/order.mapper.js';
import type { Order } from '../orders/order.js';
import type { Voucher } from '../vouchers/voucher.js';
import { redemptionsPath, toVoucherReply } from '../vouchers/voucher.mapper.js';
import type { OrderCalculation } from './calculator.js';
import type { Redemption, RedemptionOrder } from './redemption.js';
import type { Evaluation } from '../validations/evaluation.js';
import { toStackedValidationReply } from '../validations/validation.mapper.js';
import type { CommittedRedemption } from './redemption.repo.js';
import type { RewardGiven } from '../loyalties/reward-redemption.js';
import type { MemberReward } from '../loyalties/reward-redemption.service.js';
import { toRewardAssignmentReply, toRewardReply } from '../rewards/reward.mapper.js';
import type {
  MemberRewardListReply,
  RedemptionListReply,
  RedemptionReply,
  RedemptionRewardReply,
  RedemptionRollbacksReply,
  RewardRedemptionReply,
  StackedRedemptionReply,
  VoucherRedemptionsReply,
} from './redemption.reply.js';
import type { RedemptionPage, StackedRollback } from './redemption.service.js';

type OrderReply = NonNullable<RedemptionReply['order']>;

/** The order figures of OrderCalculated. */
function toRedemptionOrderReply(o: RedemptionOrder): OrderReply {
  const c: OrderCalculation = o.calculation;
  return {
    id: o.id,
    source_id: o.sourceId,
    status: o.status,
    ...orderFiguresOf(c),
    items: c.items.map((l) => ({
      product_id: l.productId,
      sku_id: l.skuId,
      quantity: l.quantity,
      initial_quantity: l.initialQuantity,
      discount_quantity: l.discountQuantity,
      applied_discount_quantity: l.appliedDiscountQuantity,
      price: l.price,
      amount: l.amount,
      initial_amount: l.initialAmount,
      discount_amount: l.discountAmount,
      applied_discount_amount: l.appliedDiscountAmount,
      subtotal_amount: l.subtotalAmount,
      object: 'order_item' as const,
    })),
    metadata: o.metadata,
    customer_id: o.customerId,
    referrer_id: o.referrerId,
    object: 'order',
  };
}

/** A stored order's figures after its last redemption, as a redemption reply shows them (null before any). */
export const toOrderFiguresReply = (o: Order | null): OrderReply | null =>
  o?.calculation
    ? toRedemptionOrderReply({
        id: o.id,
        sourceId: o.sourceId,
        status: o.status,
        metadata: o.metadata,
        customerId: o.customerId,
        referrerId: o.referrerId,
        calculation: o.calculation,
      })
    : null;

/** A redemption or rollback on the wire (the reference's Redemption / RedemptionRollback). */
export function toRedemptionReply(r: Redemption): RedemptionReply {
  const isParent = r.relatedObjectType === 'redemption';
  return {
    id: r.id,
    object: r.object,
    date: r.date,
    customer_id: r.customerId,
    tracking_id: r.trackingId,
    metadata: r.metadata,
    amount: r.amount,
    redemption: r.redemption,
    ...(r.object === 'redemption_rollback' ? { reason: r.reason } : {}),
    result: r.result,
    status: r.status,
    ...(isParent && r.object === 'redemption'
      ? {
          related_redemptions: {
            rollbacks: r.rollbackId ? [{ id: r.rollbackId, date: r.date }] : [],
            redemptions: r.childIds.map((id) => ({ id, date: r.date })),
          },
        }
      : {}),
    order: r.order ? toRedemptionOrderReply(r.order) : null,
    channel: { channel_id: null, channel_type: 'API' },
    customer: r.customerId !== null ? { id: r.customerId, source_id: r.customerSourceId, object: 'customer' } : null,
    related_object_type: r.relatedObjectType,
    related_object_id: r.relatedObjectId,
    ...(r.voucher ? { voucher: toVoucherReply(r.voucher) } : {}),
    ...(r.promotionTierId
      ? {
          promotion_tier: {
            id: r.promotionTierId,
            campaign: r.campaignId ? { id: r.campaignId, name: r.campaignName } : null,
            object: 'promotion_tier' as const,
          },
        }
      : {}),
    ...(r.giftCredits > 0 ? { gift: { amount: r.giftCredits } } : {}),
    ...(r.reward ? { reward: toRedemptionRewardReply(r, r.reward), loyalty_card: { points: r.loyaltyPoints } } : {}),
  };
}

/** The reply of a stacked rollback. */
export const toRedemptionRollbacksReply = (s: StackedRollback): RedemptionRollbacksReply => ({
  rollbacks: s.rollbacks.map(toRedemptionReply),
  parent_rollback: toRedemptionReply(s.parentRollback),
  order: toOrderFiguresReply(s.order),
});

/** One page of GET /v1/redemptions. */
export const toRedemptionListReply = (page: RedemptionPage): RedemptionListReply => ({
  object: 'list',
  data_ref: 'redemptions',
  redemptions: page.redemptions.map(toRedemptionReply),
  total: page.total,
  has_more: page.hasMore,
});

/** GET /v1/vouchers/{code}/redemption: the voucher's counts and its entries. */
export const toVoucherRedemptionsReply = (x: { voucher: Voucher; entries: Redemption[] }): VoucherRedemptionsReply => ({
  quantity: x.voucher.redemptionQuantity,
  redeemed_quantity: x.voucher.redeemedQuantity,
  object: 'list',
  url: redemptionsPath(x.voucher.code),
  data_ref: 'redemption_entries',
  total: x.entries.length,
  redemption_entries: x.entries.map(toRedemptionReply),
});

/**
 * POST /v1/redemptions' reply: the child redemptions in application order, the parent, the order as
 * the redemption stored it, and the redeemables the evaluation left out (PARTIAL mode), as the
 * validation reply shows them (each list left out when empty).
 */
export function toStackedRedemptionReply(committed: CommittedRedemption, evaluation: Evaluation, requestId?: string): StackedRedemptionReply {
  const validation = toStackedValidationReply(evaluation, requestId);
  const order = toOrderFiguresReply(committed.order);
  if (!order) throw new Error(`Order ${committed.order.id} was written without its figures`);
  return {
    redemptions: committed.children.map(toRedemptionReply),
    parent_redemption: toRedemptionReply(committed.parent),
    order,
    ...(validation.inapplicable_redeemables ? { inapplicable_redeemables: validation.inapplicable_redeemables } : {}),
    ...(validation.skipped_redeemables ? { skipped_redeemables: validation.skipped_redeemables } : {}),
  };
}

/** POST /v1/redemptions of a loyalty card alone with a `reward`: its one reward redemption (no parent), and the order a COIN reward paid. */
export function toStackedRewardRedemptionReply(r: Redemption): StackedRedemptionReply {
  const redemption = toRewardRedemptionReply(r);
  return {
    redemptions: [redemption],
    ...(redemption.order ? { order: redemption.order } : {}),
  };
}

/** The reward part of a reward redemption (RedemptionRewardResult). */
function toRedemptionRewardReply(r: Redemption, given: RewardGiven): RedemptionRewardReply {
  const w = toRewardReply(given.reward);
  return {
    id: w.id,
    name: w.name,
    type: w.type,
    parameters: w.parameters,
    metadata: w.metadata,
    created_at: w.created_at,
    updated_at: w.updated_at,
    object: 'reward',
    customer: r.customerId !== null ? { id: r.customerId, source_id: r.customerSourceId, object: 'customer' } : null,
    assignment_id: given.assignmentId,
    voucher: given.voucher ? toVoucherReply(given.voucher) : null,
    product: given.reward.type === 'MATERIAL' ? { id: given.reward.product.productId, object: 'product' } : null,
    sku: given.reward.type === 'MATERIAL' && given.reward.product.skuId !== null ? { id: given.reward.product.skuId, object: 'sku' } : null,
    loyalty_tier_id: null,
  };
}

/** POST …/members/{memberId}/redemption: the redemption with its loyalty card (as after the payment) and its reward. */
export function toRewardRedemptionReply(r: Redemption): RewardRedemptionReply {
  const base = toRedemptionReply(r);
  if (!r.reward || !base.voucher) throw new Error(`Redemption ${r.id} is not a reward redemption`);
  return { ...base, voucher: base.voucher, reward: toRedemptionRewardReply(r, r.reward), loyalty_card: { points: r.loyaltyPoints } };
}

/** GET /v1/loyalties/members/{memberId}/rewards. */
export const toMemberRewardListReply = (list: MemberReward[]): MemberRewardListReply => ({
  object: 'list',
  data_ref: 'data',
  data: list.map((m) => ({ reward: toRewardReply(m.reward), assignment: toRewardAssignmentReply(m.assignment), object: 'loyalty_reward' as const })),
  total: list.length,
});
