import type { Discount, Validity, VoucherType } from '../campaigns/campaign.js';
import type { Category } from '../categories/category.js';
import type { VoucherSessions } from '../redemptions/session-lock.js';

export interface Gift {
  amount: number;
  subtractedAmount: number;
  balance: number;
  effect: string | null;
}

export interface LoyaltyCard {
  points: number;
  balance: number;
  nextExpirationDate: string | null;
  nextExpirationPoints: number | null;
  pendingPoints: number;
  expiredPoints: number;
  subtractedPoints: number;
  /**
   * Points held in ACTIVE buckets (lib/loyalties); the rest of `balance` was given without a bucket
   * (a new card's starting points) and never expires. Absent = 0.
   */
  bucketedPoints?: number;
  /** Raised by every points change; the optimistic lock of lib/loyalties. Absent = 0. */
  revision?: number;
  /** The program tier it held at its last points change (lib/loyalties/tier-period.ts), `expires` the last day it holds; absent or null = none. Not on the wire. */
  tier?: { id: string; since: string; expires?: string | null } | null;
  /** Points collected in the calendar period `period` names (lib/loyalties/tier-period.ts; POINTS_IN_PERIOD programs only). Not on the wire. */
  periodPoints?: { period: string; points: number };
  /** Tier changes its points changes made. Absent = 0. Not on the wire. */
  tierChanges?: number;
}

export interface Voucher extends Validity {
  id: string;
  code: string;
  projectId: string;
  campaignId: string | null;
  /** The campaign's name when the voucher was made (names cannot change yet). */
  campaignName: string | null;
  category: Category | null;
  type: VoucherType;
  discount: Discount | null;
  gift: Gift | null;
  loyaltyCard: LoyaltyCard | null;
  active: boolean;
  additionalInfo: string | null;
  metadata: Record<string, unknown>;
  isReferralCode: boolean;
  createdAt: string;
  updatedAt: string | null;
  holderId: string | null;
  referrerId: string | null;
  /** Allowed redemptions; null = unlimited. */
  redemptionQuantity: number | null;
  redeemedQuantity: number;
  redeemedPoints: number;
  publishCount: number;
  /** Referral conversions of a referral code by custom events (lib/referrals); not on the wire. Absent = 0. */
  referralConversions?: number;
  /**
   * The publication that gave a one-holder voucher its holder (lib/publications), so the list of
   * publications filtered by voucher finds it with one GetItem; absent until published (and on
   * generic codes, whose publications are listed in their own view). Not on the wire.
   */
  publicationId?: string;
  /**
   * LOCK validation sessions holding a use or gift credits of this voucher, by session key
   * (lib/redemptions/session-lock.ts); expired ones count for nothing until a write prunes them.
   * Absent = none. Not on the wire.
   */
  sessions?: VoucherSessions;
  /** Raised by every hold written or released (an item of its own, or in `sessions`): a redemption that counted the holds conditions on it. Absent = 0. */
  sessionsRevision?: number;
  /**
   * The latest expiry (ISO) of any session hold item written for this voucher (lib/db/entities.ts
   * voucherSessionHold): once past, no hold item can be live and none is read. Absent = none.
   */
  sessionsUntil?: string;
}

/**
 * Whether a voucher is waiting in its campaign's pool of vouchers to publish: in a campaign,
 * active, never published and held by no one. Exactly these vouchers carry the pool's sparse
 * index key (lib/db/entities.ts `voucher`), so every write of a voucher keeps the pool true.
 */
export const isPublishable = (v: Pick<Voucher, 'campaignId' | 'holderId' | 'publishCount' | 'active'>): boolean =>
  v.campaignId !== null && v.holderId === null && v.publishCount === 0 && v.active;

/**
 * A generic code: a voucher of no campaign that more than one customer may redeem (unlimited, or
 * a redemption quantity above 1). It may be published to many customers; every other voucher
 * is published once (Voucherify: "you can publish a unique code to only one customer").
 */
export const isGenericCode = (v: Pick<Voucher, 'campaignId' | 'redemptionQuantity'>): boolean =>
  v.campaignId === null && (v.redemptionQuantity === null || v.redemptionQuantity > 1);
