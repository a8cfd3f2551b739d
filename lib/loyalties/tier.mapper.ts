import type * as z from '../zod.js';
import { toEarningRuleReply } from '../earning-rules/earning-rule.mapper.js';
import type { EarningRule } from '../earning-rules/earning-rule.js';
import { toRewardAssignmentReply, toRewardReply } from '../rewards/reward.mapper.js';
import type { LoyaltyTier } from './tier.js';
import type {
  loyaltyTierEarningRuleListReplySchema,
  loyaltyTierListReplySchema,
  loyaltyTierReplySchema,
  loyaltyTierRewardListReplySchema,
} from './tier.reply.js';
import type { MemberTier, TierReward } from './tier.service.js';

type TierReply = z.input<typeof loyaltyTierReplySchema>;

/** Voucherify's loyalty tier object; `points` and `config.points` carry the same range (`to` left out when open). */
export function toLoyaltyTierReply(t: LoyaltyTier): TierReply {
  const range = { from: t.points.from, ...(t.points.to !== null ? { to: t.points.to } : {}) };
  return {
    id: t.id,
    name: t.name,
    campaign_id: t.campaignId,
    metadata: t.metadata,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    earning_rules: t.earningRules,
    rewards: t.rewards,
    config: { points: range },
    points: range,
    object: 'loyalty_tier',
  };
}

export const toLoyaltyTierListReply = (p: { tiers: LoyaltyTier[]; total: number }): z.input<typeof loyaltyTierListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: p.tiers.map(toLoyaltyTierReply),
  total: p.total,
});

/**
 * A member's tier with `expiration`: when the card entered it (`created_at`, and its day as `start_date`) and,
 * for a dated tier, the last day it holds (`expiration_date`). No holder: left out (its `customer_id` is required).
 */
export const toMemberTierListReply = (list: MemberTier[]): z.input<typeof loyaltyTierListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: list.map(({ tier, card, since, expires }) => ({
    ...toLoyaltyTierReply(tier),
    ...(card.holderId !== null
      ? {
          expiration: {
            customer_id: card.holderId,
            campaign_id: tier.campaignId,
            tier_id: tier.id,
            start_date: since.slice(0, 10),
            ...(expires !== null ? { expiration_date: expires } : {}),
            created_at: since,
          },
        }
      : {}),
    object: 'loyalty_tier' as const,
  })),
  total: list.length,
});

export const toTierEarningRuleListReply = (p: { rules: EarningRule[]; total: number }): z.input<typeof loyaltyTierEarningRuleListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: p.rules.map(toEarningRuleReply),
  total: p.total,
});

export const toTierRewardListReply = (p: { rewards: TierReward[]; total: number }): z.input<typeof loyaltyTierRewardListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: p.rewards.map((r) => ({ reward: toRewardReply(r.reward), assignment: toRewardAssignmentReply(r.assignment), object: 'loyalty_tier_reward' as const })),
  total: p.total,
});
