/** Reward types of Voucherify: a campaign's voucher or credit, pay-with-points, or a product. */
export const REWARD_TYPES = ['CAMPAIGN', 'COIN', 'MATERIAL'] as const;
export type RewardType = (typeof REWARD_TYPES)[number];

/** Campaign types a CAMPAIGN reward can draw from. */
export const REWARD_CAMPAIGN_TYPES = ['DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'LOYALTY_PROGRAM'] as const;
export type RewardCampaignType = (typeof REWARD_CAMPAIGN_TYPES)[number];

/** A discount coupon, gift credit or loyalty points from one campaign. */
export interface CampaignRewardParameters {
  campaignId: string;
  campaignType: RewardCampaignType;
  /** Gift credit (smallest currency unit) or points added; null for discount coupons. */
  balance: number | null;
}

/** Pay with points: `pointsRatio` points are worth `exchangeRatio` in cash. */
export interface CoinRewardParameters {
  exchangeRatio: number;
  pointsRatio: number;
}

export interface MaterialRewardParameters {
  productId: string;
  skuId: string | null;
}

export interface RewardAttributes {
  imageUrl?: string;
  description?: string;
}

interface RewardBase {
  id: string;
  projectId: string;
  name: string;
  /** Units left to give (MATERIAL only); null = not tracked. */
  stock: number | null;
  /** Successful reward redemptions; null until rewards can be redeemed. */
  redeemed: number | null;
  attributes: RewardAttributes;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string | null;
  /**
   * Assignments counted against the reward, kept by the assignment writes in their transactions
   * (absent = none); a reward is deleted only while it is 0 or less.
   */
  assignmentCount?: number;
}

export type Reward = RewardBase &
  (
    | { type: 'CAMPAIGN'; campaign: CampaignRewardParameters }
    | { type: 'COIN'; coin: CoinRewardParameters }
    | { type: 'MATERIAL'; product: MaterialRewardParameters }
  );

/** The cost of a reward in one loyalty campaign. */
export interface RewardAssignment {
  id: string;
  projectId: string;
  rewardId: string;
  campaignId: string;
  /** Points a loyalty card pays for the reward. */
  points: number;
  createdAt: string;
  updatedAt: string | null;
}
