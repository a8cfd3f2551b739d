import { earningRuleReplySchema } from '../earning-rules/earning-rule.reply.js';
import { listReply } from '../openapi/list-reply.js';
import { rewardAssignmentReplySchema, rewardReplySchema } from '../rewards/reward.reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of the loyalty tier endpoints (lib/loyalties/tier.mapper.ts writes these shapes).
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const mapping = z.union([
  z.strictObject({ type: z.literal('MULTIPLY'), multiplier: z.number() }),
  z.strictObject({ type: z.literal('CUSTOM'), points: z.int() }),
]);

const range = z.strictObject({ from: z.int(), to: z.optional(z.int()) });

export const loyaltyTierReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  campaign_id: z.string(),
  metadata: z.nullable(z.record(z.string(), z.unknown())),
  created_at: z.string(),
  updated_at: z.nullable(z.string()),
  earning_rules: z.record(z.string(), mapping),
  rewards: z.record(z.string(), mapping),
  config: z.strictObject({ points: range }),
  points: range,
  /** A member's tier only (list-member-loyalty-tier): when the card entered it and until when it holds. */
  expiration: z.optional(
    z.strictObject({
      customer_id: z.string(),
      campaign_id: z.string(),
      tier_id: z.string(),
      /** The day the card entered the tier. */
      start_date: z.string(),
      /** The last day the tier holds whatever the points say (programs whose tiers expire by date). */
      expiration_date: z.optional(z.string()),
      created_at: z.string(),
    }),
  ),
  object: z.literal('loyalty_tier'),
});

export const loyaltyTierListReplySchema = listReply(loyaltyTierReplySchema, { dataRef: 'data' });

export const loyaltyTierEarningRuleListReplySchema = listReply(earningRuleReplySchema, { dataRef: 'data' });

export const loyaltyTierRewardListReplySchema = listReply(
  z.strictObject({ reward: rewardReplySchema, assignment: rewardAssignmentReplySchema, object: z.literal('loyalty_tier_reward') }),
  { dataRef: 'data' },
);

/** POST /v1/loyalties/{campaignId}/qualifications (estimate-points). */
export const pointsEstimateReplySchema = z.strictObject({
  campaign: z.strictObject({ id: z.string(), name: z.string(), object: z.literal('campaign') }),
  points_estimation: z.int().check(z.nonnegative()),
});
