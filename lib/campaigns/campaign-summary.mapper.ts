import type { Campaign } from './campaign.js';
import { toCampaignReply } from './campaign.mapper.js';
import type { CampaignSummaryTotals } from './campaign-summary.js';
import type { CampaignSummaryReply } from './campaign-summary.reply.js';

/**
 * The summary reply of `campaign` from its counted `t`otals: the base figures for every type, then
 * the groups the reference gives its type (vouchers and publications for code campaigns; discounts
 * for coupons and promotions; credits for gift cards; points for loyalty; referred customers for
 * referral). Figures no flow keeps here (point transfers, pending points) are 0.
 */
export function toCampaignSummaryReply(campaign: Campaign, t: CampaignSummaryTotals): CampaignSummaryReply {
  const type = campaign.campaignType;
  const base = {
    object: 'campaign_summary' as const,
    campaign: toCampaignReply(campaign),
    redemptions: t.redemptions,
    redemptions_succeeded: t.redemptionsSucceeded,
    redemptions_failed: t.redemptionsFailed,
    rollbacks: t.rollbacks,
    rollbacks_succeeded: t.rollbacksSucceeded,
    rollbacks_failed: t.rollbacksFailed,
    validations: t.validations,
    validations_succeeded: t.validationsSucceeded,
    validations_failed: t.validationsFailed,
    orders_amount: t.ordersAmount,
    orders_rolledback_amount: t.ordersRolledbackAmount,
  };
  const vouchers =
    type === 'PROMOTION'
      ? {}
      : {
          vouchers_created: t.vouchersCreated,
          vouchers_deleted: t.vouchersDeleted,
          publications: t.publications,
          publications_succeeded: t.publicationsSucceeded,
          publications_failed: t.publicationsFailed,
        };
  switch (type) {
    case 'DISCOUNT_COUPONS':
    case 'PROMOTION':
      return { ...base, ...vouchers, discounted_amount: t.discountedAmount, rolledback_discounted_amount: t.rolledbackDiscountedAmount };
    case 'GIFT_VOUCHERS':
      return {
        ...base,
        ...vouchers,
        created_vouchers_amount: t.createdVouchersAmount,
        amount_added: t.amountAdded,
        amount_deleted: t.amountDeleted,
        amount_redeemed: t.amountRedeemed,
        amount_rolledback: t.amountRolledback,
        amount_subtracted: t.amountSubtracted,
      };
    case 'LOYALTY_PROGRAM':
      return {
        ...base,
        ...vouchers,
        created_vouchers_points: t.createdVouchersPoints,
        points_deleted: t.pointsDeleted,
        points_subtracted: t.pointsSubtracted,
        points_added: t.pointsAdded,
        points_rewarded: t.pointsRewarded,
        points_redeemed: t.pointsRedeemed,
        points_rolledback: t.pointsRolledback,
        points_expired: t.pointsExpired,
        points_transferred_out: 0,
        points_transferred_in: 0,
        pending_points_added: 0,
        pending_points_subtracted: 0,
        pending_points_activated: 0,
        pending_points_canceled: 0,
      };
    case 'REFERRAL_PROGRAM':
      return { ...base, ...vouchers, referred_customers: t.referredCustomers };
  }
}
