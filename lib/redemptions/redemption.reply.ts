import { orderFiguresReplyFields } from '../orders/order.reply.js';
import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { ORDER_STATUSES } from '../orders/order.js';
import { rewardAssignmentReplySchema, rewardReplySchema } from '../rewards/reward.reply.js';
import { voucherReplySchema } from '../vouchers/voucher.reply.js';
import { inapplicableRedeemableReplySchema, skippedRedeemableReplySchema } from '../validations/validation.reply.js';

/*
 * Reply schemas of redemptions and rollbacks (lib/redemptions/redemption.mapper.ts writes these
 * shapes): the reference's `Redemption` and `RedemptionRollback`, the rollbacks' reply and the lists.
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const timestamp = z.iso.datetime();
const amount = z.int().check(z.nonnegative());
const metadata = z.record(z.string(), z.unknown());

/** One line of the order a redemption records (OrderCalculatedItem's figures). */
const redemptionOrderItemReply = z.strictObject({
  product_id: z.nullable(z.string()),
  sku_id: z.nullable(z.string()),
  quantity: amount,
  initial_quantity: amount,
  discount_quantity: amount,
  applied_discount_quantity: amount,
  price: amount,
  amount,
  initial_amount: amount,
  discount_amount: amount,
  applied_discount_amount: amount,
  subtotal_amount: amount,
  object: z.literal('order_item'),
});

/** The order as a redemption or rollback recorded it (OrderCalculated). */
export const redemptionOrderReplySchema = z.strictObject({
  id: z.string(),
  source_id: z.nullable(z.string()),
  status: z.enum(ORDER_STATUSES),
  ...orderFiguresReplyFields,
  items: z.array(redemptionOrderItemReply),
  metadata,
  customer_id: z.nullable(z.string()),
  referrer_id: z.nullable(z.string()),
  object: z.literal('order'),
});

/** The reward a loyalty card's points paid for (the reference's RedemptionRewardResult): the reward and what it gave. */
export const redemptionRewardReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  type: z.enum(['CAMPAIGN', 'COIN', 'MATERIAL']),
  parameters: rewardReplySchema.shape.parameters,
  metadata,
  created_at: timestamp,
  updated_at: z.nullable(timestamp),
  object: z.literal('reward'),
  customer: z.nullable(z.strictObject({ id: z.string(), source_id: z.nullable(z.string()), object: z.literal('customer') })),
  assignment_id: z.string(),
  /** The voucher a CAMPAIGN reward published to the member; null for other rewards. */
  voucher: z.nullable(voucherReplySchema),
  product: z.nullable(z.strictObject({ id: z.string(), object: z.literal('product') })),
  sku: z.nullable(z.strictObject({ id: z.string(), object: z.literal('sku') })),
  loyalty_tier_id: z.null(),
});
export type RedemptionRewardReply = z.output<typeof redemptionRewardReplySchema>;

/** A redemption (parent or child) or a `redemption_rollback`: the reference's Redemption / RedemptionRollback. */
export const redemptionReplySchema = z.strictObject({
  id: z.string(),
  object: z.enum(['redemption', 'redemption_rollback']),
  date: timestamp,
  customer_id: z.nullable(z.string()),
  tracking_id: z.nullable(z.string()),
  metadata,
  amount,
  redemption: z.nullable(z.string()),
  reason: z.optional(z.nullable(z.string())),
  result: z.enum(['SUCCESS', 'FAILURE']),
  status: z.enum(['SUCCEEDED', 'FAILED', 'ROLLED_BACK']),
  related_redemptions: z.optional(
    z.strictObject({
      rollbacks: z.array(z.strictObject({ id: z.string(), date: timestamp })),
      redemptions: z.array(z.strictObject({ id: z.string(), date: timestamp })),
    }),
  ),
  order: z.nullable(redemptionOrderReplySchema),
  channel: z.strictObject({ channel_id: z.nullable(z.string()), channel_type: z.literal('API') }),
  customer: z.nullable(z.strictObject({ id: z.string(), source_id: z.nullable(z.string()), object: z.literal('customer') })),
  related_object_type: z.enum(['voucher', 'promotion_tier', 'redemption']),
  related_object_id: z.string(),
  voucher: z.optional(voucherReplySchema),
  promotion_tier: z.optional(
    z.strictObject({
      id: z.string(),
      campaign: z.nullable(z.strictObject({ id: z.string(), name: z.nullable(z.string()) })),
      object: z.literal('promotion_tier'),
    }),
  ),
  gift: z.optional(z.strictObject({ amount })),
  reward: z.optional(redemptionRewardReplySchema),
  loyalty_card: z.optional(z.strictObject({ points: z.int() })),
});
export type RedemptionReply = z.output<typeof redemptionReplySchema>;

/** POST …/members/{memberId}/redemption (LoyaltiesMembersRedemptionRedeemResponseBody): the redemption, its loyalty card and its reward. */
export const rewardRedemptionReplySchema = z.strictObject({
  ...redemptionReplySchema.shape,
  voucher: voucherReplySchema,
  reward: redemptionRewardReplySchema,
  loyalty_card: z.strictObject({ points: z.int() }),
});
export type RewardRedemptionReply = z.output<typeof rewardRedemptionReplySchema>;

/** GET /v1/loyalties/members/{memberId}/rewards (LoyaltiesMembersRewardsListResponseBody). */
export const memberRewardListReplySchema = listReply(
  z.strictObject({ reward: rewardReplySchema, assignment: rewardAssignmentReplySchema, object: z.literal('loyalty_reward') }),
  { dataRef: 'data' },
);
export type MemberRewardListReply = z.output<typeof memberRewardListReplySchema>;

/** POST /v1/redemptions/{redemptionId}/rollbacks (RedemptionsRollbacksCreateResponseBody). */
export const redemptionRollbacksReplySchema = z.strictObject({
  rollbacks: z.array(redemptionReplySchema),
  parent_rollback: redemptionReplySchema,
  order: z.nullable(redemptionOrderReplySchema),
});
export type RedemptionRollbacksReply = z.output<typeof redemptionRollbacksReplySchema>;

/** GET /v1/redemptions (RedemptionsListResponseBody). */
export const redemptionListReplySchema = listReply(redemptionReplySchema, { dataRef: 'redemptions', hasMore: true });
export type RedemptionListReply = z.output<typeof redemptionListReplySchema>;

/** GET /v1/vouchers/{code}/redemption (VouchersRedemptionGetResponseBody): the counts and every entry, newest first. */
export const voucherRedemptionsReplySchema = z.strictObject({
  quantity: z.nullable(z.int().check(z.nonnegative())),
  redeemed_quantity: z.int().check(z.nonnegative()),
  object: z.literal('list'),
  url: z.string(),
  data_ref: z.literal('redemption_entries'),
  total: z.int().check(z.nonnegative()),
  redemption_entries: z.array(redemptionReplySchema),
});
export type VoucherRedemptionsReply = z.output<typeof voucherRedemptionsReplySchema>;

/** POST /v1/redemptions (RedemptionsRedeemResponseBody): the child redemptions, their parent, the order, and what was not redeemed. */
export const stackedRedemptionReplySchema = z.strictObject({
  redemptions: z.array(redemptionReplySchema),
  // A loyalty card's reward redeemed alone is one redemption, with no parent (and no order unless a COIN reward paid one).
  parent_redemption: z.optional(redemptionReplySchema),
  order: z.optional(redemptionOrderReplySchema),
  // Left out when empty, as in the reference's examples.
  inapplicable_redeemables: z.optional(z.array(inapplicableRedeemableReplySchema)),
  skipped_redeemables: z.optional(z.array(skippedRedeemableReplySchema)),
});
export type StackedRedemptionReply = z.output<typeof stackedRedemptionReplySchema>;
