/** A referred customer's conversion of a referral code, recorded by the custom event that made it. */
export interface ReferralConversion {
  id: string;
  projectId: string;
  campaignId: string;
  /** The referral code (case-sensitive) and its voucher id. */
  code: string;
  voucherId: string;
  /** The customer who owns and shares the code. */
  referrerId: string;
  /** The referred customer: the event's customer. */
  refereeId: string;
  /** The custom event that converted. */
  eventId: string;
  eventType: string;
  createdAt: string;
  /**
   * The referee reward this conversion granted, in the same transaction (absent: none): the record of
   * the `customer.rewarded` webhook events. `campaignId` is the reward's parent campaign.
   */
  reward?: GrantedReward;
}

/** What a referee got: points on a loyalty card or credits on a gift voucher of the parent campaign. */
export interface GrantedReward {
  type: 'LOYALTY_CARD' | 'GIFT_VOUCHER';
  amount: number;
  campaignId: string;
  voucherId: string;
  code: string;
}
