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
}
