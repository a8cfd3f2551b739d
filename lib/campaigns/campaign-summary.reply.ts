import * as z from '../zod.js';
import { campaignReplySchema } from './campaign.reply.js';

/*
 * Reply schema of GET /v1/campaigns/{campaignId}/summary (lib/campaigns/campaign-summary.mapper.ts
 * writes it). The reference gives one shape per campaign type (`CampaignsSummary*`), all sharing the
 * base figures: here one object whose type-specific groups are present exactly for their campaign types.
 */

const count = z.int();

export const campaignSummaryReplySchema = z.strictObject({
  object: z.literal('campaign_summary'),
  campaign: campaignReplySchema,
  redemptions: count,
  redemptions_succeeded: count,
  redemptions_failed: count,
  rollbacks: count,
  rollbacks_succeeded: count,
  rollbacks_failed: count,
  validations: count,
  validations_succeeded: count,
  validations_failed: count,
  orders_amount: count,
  orders_rolledback_amount: count,
  // Every type but PROMOTION
  vouchers_created: z.optional(count),
  vouchers_deleted: z.optional(count),
  publications: z.optional(count),
  publications_succeeded: z.optional(count),
  publications_failed: z.optional(count),
  // DISCOUNT_COUPONS, PROMOTION
  discounted_amount: z.optional(count),
  rolledback_discounted_amount: z.optional(count),
  // GIFT_VOUCHERS
  created_vouchers_amount: z.optional(count),
  amount_added: z.optional(count),
  amount_deleted: z.optional(count),
  amount_redeemed: z.optional(count),
  amount_rolledback: z.optional(count),
  amount_subtracted: z.optional(count),
  // LOYALTY_PROGRAM
  created_vouchers_points: z.optional(count),
  points_deleted: z.optional(count),
  points_subtracted: z.optional(count),
  points_added: z.optional(count),
  points_rewarded: z.optional(count),
  points_redeemed: z.optional(count),
  points_rolledback: z.optional(count),
  points_expired: z.optional(count),
  points_transferred_out: z.optional(count),
  points_transferred_in: z.optional(count),
  pending_points_added: z.optional(count),
  pending_points_subtracted: z.optional(count),
  pending_points_activated: z.optional(count),
  pending_points_canceled: z.optional(count),
  // REFERRAL_PROGRAM
  referred_customers: z.optional(count),
});
export type CampaignSummaryReply = z.input<typeof campaignSummaryReplySchema>;
