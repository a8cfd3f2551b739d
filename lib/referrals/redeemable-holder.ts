import { createHash } from 'node:crypto';
import type { VoucherType } from '../campaigns/campaign.js';
import type { Voucher } from '../vouchers/voucher.js';

/** The roles a customer holds a redeemable in (Voucherify's `holder_role`). */
export type HolderRole = 'OWNER' | 'REFERRER' | 'REFEREE';

/** The campaign types a holding names (Voucherify's `campaign_type` of a customer redeemable). */
export type HoldingCampaignType = 'LOYALTY_PROGRAM' | 'GIFT_VOUCHERS' | 'DISCOUNT_COUPONS' | 'PROMOTION' | 'REFERRAL_PROGRAM';

/**
 * A referee of a referral code (POST /v1/referrals/members/{memberId}/holders): one per (code,
 * customer), stored. The code's referrer (its `holder_id`) is not stored as one: its holding is
 * derived from the voucher (ownerHolding).
 */
export interface ReferralHolder {
  /** `rh_` + 18 hex digits, time first, so id order is creation order. */
  id: string;
  projectId: string;
  voucherId: string;
  code: string;
  campaignId: string;
  voucherType: VoucherType;
  customerId: string;
  metadata: Record<string, unknown>;
  createdAt: string;
}

/** One customer's holding of one voucher, in any role: the wire's `redeemable_holder` / customer redeemable. */
export interface Holding {
  id: string;
  createdAt: string;
  voucherId: string;
  code: string;
  customerId: string;
  role: HolderRole;
  campaignId: string | null;
  campaignType: HoldingCampaignType | null;
  voucherType: VoucherType;
  metadata: Record<string, unknown> | null;
}

const TIME_DIGITS = 11;
const TAIL_DIGITS = 7;

const timeHex = (iso: string): string => Date.parse(iso).toString(16).padStart(TIME_DIGITS, '0').slice(-TIME_DIGITS);

/** A new holder id at `createdAt`; `random` gives its tail (hex digits). */
export const holderIdAt = (createdAt: string, random: string): string =>
  `rh_${timeHex(createdAt)}${random
    .replace(/[^0-9a-f]/g, '')
    .padEnd(TAIL_DIGITS, '0')
    .slice(0, TAIL_DIGITS)}`;

/**
 * The id of a voucher's owner holding: fixed by the voucher (its creation time, then a digest of
 * its id), so it is the same on every read, and it sorts before the holders added to the code
 * later (a referee can only be added once the code is published, after it was created).
 */
export const ownerHolderId = (v: Pick<Voucher, 'id' | 'createdAt'>): string =>
  `rh_${timeHex(v.createdAt)}${createHash('sha256').update(v.id).digest('hex').slice(0, TAIL_DIGITS)}`;

/**
 * The campaign type a voucher's holding names, read from the voucher: a referral code is of a
 * REFERRAL_PROGRAM, a card of a LOYALTY_PROGRAM, a gift voucher of GIFT_VOUCHERS, another
 * discount voucher of DISCOUNT_COUPONS; a voucher of no campaign, none.
 */
export function holdingCampaignType(v: Pick<Voucher, 'campaignId' | 'isReferralCode' | 'type'>): HoldingCampaignType | null {
  if (v.campaignId === null) return null;
  if (v.isReferralCode) return 'REFERRAL_PROGRAM';
  if (v.type === 'LOYALTY_CARD') return 'LOYALTY_PROGRAM';
  if (v.type === 'GIFT_VOUCHER') return 'GIFT_VOUCHERS';
  return 'DISCOUNT_COUPONS';
}

/** The holding of a voucher by its holder (`holder_id`): REFERRER of a referral code, else OWNER; null when it has no holder. */
export function ownerHolding(v: Voucher): Holding | null {
  if (v.holderId === null) return null;
  return {
    id: ownerHolderId(v),
    createdAt: v.createdAt,
    voucherId: v.id,
    code: v.code,
    customerId: v.holderId,
    role: v.isReferralCode ? 'REFERRER' : 'OWNER',
    campaignId: v.campaignId,
    campaignType: holdingCampaignType(v),
    voucherType: v.type,
    metadata: null,
  };
}

/** A referee's holding. */
export const refereeHolding = (h: ReferralHolder): Holding => ({
  id: h.id,
  createdAt: h.createdAt,
  voucherId: h.voucherId,
  code: h.code,
  customerId: h.customerId,
  role: 'REFEREE',
  campaignId: h.campaignId,
  campaignType: 'REFERRAL_PROGRAM',
  voucherType: h.voucherType,
  metadata: h.metadata,
});

/** Holdings in id order (`id`) or reversed (`-id`). */
export const sortHoldings = (holdings: Holding[], order: 'id' | '-id'): Holding[] =>
  [...holdings].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * (order === 'id' ? 1 : -1));

/** The page after `afterId` (exclusive; absent: from the start) of sorted holdings: `limit` of them, and whether more follow. */
export function pageOf(sorted: Holding[], order: 'id' | '-id', afterId: string | undefined, limit: number): { page: Holding[]; hasMore: boolean } {
  const rest = afterId === undefined ? sorted : sorted.filter((h) => (order === 'id' ? h.id > afterId : h.id < afterId));
  return { page: rest.slice(0, limit), hasMore: rest.length > limit };
}

/** Redeemable statuses of a customer redeemable. */
export type RedeemableStatus = 'ACTIVE' | 'USED' | 'DISABLED' | 'NOT_ACTIVE_YET' | 'EXPIRED' | 'NO_BALANCE';

/**
 * Whether a voucher can still be used at `now`, and if not why: disabled, before its start,
 * after its expiry, every use spent, or a gift voucher or card with nothing left on it.
 */
export function redeemableStatus(
  v: Pick<Voucher, 'active' | 'startDate' | 'expirationDate' | 'redemptionQuantity' | 'redeemedQuantity' | 'gift' | 'loyaltyCard'>,
  now: Date,
): RedeemableStatus {
  if (!v.active) return 'DISABLED';
  const at = now.getTime();
  if (v.startDate !== null && Date.parse(v.startDate) > at) return 'NOT_ACTIVE_YET';
  if (v.expirationDate !== null && Date.parse(v.expirationDate) < at) return 'EXPIRED';
  if (v.redemptionQuantity !== null && v.redeemedQuantity >= v.redemptionQuantity) return 'USED';
  if (v.gift && v.gift.balance <= 0) return 'NO_BALANCE';
  if (v.loyaltyCard && v.loyaltyCard.balance <= 0) return 'NO_BALANCE';
  return 'ACTIVE';
}
