import type { Reward, RewardAssignment } from './reward.js';
import type * as z from '../zod.js';
import type { rewardAssignmentListReplySchema, rewardAssignmentReplySchema, rewardListReplySchema, rewardReplySchema } from './reward.reply.js';

function parametersReply(r: Reward): z.input<typeof rewardReplySchema>['parameters'] {
  switch (r.type) {
    case 'CAMPAIGN':
      return {
        campaign: {
          id: r.campaign.campaignId,
          ...(r.campaign.balance !== null ? { balance: r.campaign.balance } : {}),
          type: r.campaign.campaignType,
        },
      };
    case 'COIN':
      return { coin: { exchange_ratio: r.coin.exchangeRatio, points_ratio: r.coin.pointsRatio } };
    case 'MATERIAL':
      return { product: { id: r.product.productId, sku_id: r.product.skuId } };
  }
}

/** The reward object (Voucherify's shape). */
export const toRewardReply = (r: Reward): z.input<typeof rewardReplySchema> => ({
  id: r.id,
  name: r.name,
  type: r.type,
  parameters: parametersReply(r),
  stock: r.stock,
  redeemed: r.redeemed,
  attributes: {
    ...(r.attributes.imageUrl !== undefined ? { image_url: r.attributes.imageUrl } : {}),
    ...(r.attributes.description !== undefined ? { description: r.attributes.description } : {}),
  },
  metadata: r.metadata,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
  object: 'reward',
});

/** The reward assignment object of the spec. */
export const toRewardAssignmentReply = (a: RewardAssignment): z.input<typeof rewardAssignmentReplySchema> => ({
  id: a.id,
  reward_id: a.rewardId,
  related_object_id: a.campaignId,
  related_object_type: 'campaign',
  parameters: { loyalty: { points: a.points } },
  created_at: a.createdAt,
  updated_at: a.updatedAt,
  object: 'reward_assignment',
});

/** A page of rewards (Voucherify's list object). */
export const toRewardListReply = (p: { items: Reward[]; total: number }): z.input<typeof rewardListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: p.items.map(toRewardReply),
  total: p.total,
});

/** A page of reward assignments (Voucherify's list object). */
export const toRewardAssignmentListReply = (p: { items: RewardAssignment[]; total: number }): z.input<typeof rewardAssignmentListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: p.items.map(toRewardAssignmentReply),
  total: p.total,
});
