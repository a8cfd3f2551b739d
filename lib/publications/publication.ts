import { createHash } from 'node:crypto';
import type { Discount, VoucherType } from '../campaigns/campaign.js';
import type { Customer } from '../customers/customer.js';
import type { Gift, LoyaltyCard, Voucher } from '../vouchers/voucher.js';

/** Vouchers one publication may hand out from a campaign (Voucherify's `campaign.count`). */
export const MAX_PUBLICATION_COUNT = 50;

/** The channel of a publication made through the API without one of its own (Voucherify's default). */
export const API_CHANNEL = 'API';

/** What a publication's list entry shows of the one voucher it gave, as it was once published. */
export interface PublishedVoucher {
  code: string;
  campaignName: string | null;
  type: VoucherType;
  discount: Discount | null;
  gift: Gift | null;
  loyaltyCard: LoyaltyCard | null;
  isReferralCode: boolean;
}

/**
 * A publication (`pub_...`): vouchers handed to one customer at one moment. Never changed once
 * written. `customer` is the customer as it was then (its list entry shows that, and the
 * customer may be deleted later); `voucher` summarizes a single voucher the same way.
 */
export interface Publication {
  id: string;
  projectId: string;
  createdAt: string;
  customerId: string;
  customer: Customer;
  metadata: Record<string, unknown>;
  channel: string;
  /** The merchant's id of the publication; unique in the project. */
  sourceId: string | null;
  campaignId: string | null;
  voucherType: VoucherType;
  isReferralCode: boolean;
  /** The vouchers given, in the order they were picked. */
  vouchers: { id: string; code: string }[];
  /** The one voucher of a single-voucher publication; null when it gave several. */
  voucher: PublishedVoucher | null;
}

/** A publication's own list entry in one view: its sort key and id; a page reads the publications by id. */
export interface PublicationListEntry {
  view: string;
  publicationId: string;
  createdAt: string;
}

/** The summary a single-voucher publication keeps of its voucher. */
export const publishedVoucherOf = (v: Voucher): PublishedVoucher => ({
  code: v.code,
  campaignName: v.campaignName,
  type: v.type,
  discount: v.discount,
  gift: v.gift,
  loyaltyCard: v.loyaltyCard,
  isReferralCode: v.isReferralCode,
});

/*
 * The list views of publications. Each publication is in `ALL`, in the view of its customer, of
 * its campaign (if any), of its voucher type, in `REFERRAL` when its codes are referral codes,
 * and, for a generic code (published many times), in the view of that voucher. A one-holder
 * voucher has one publication, found from the voucher itself (Voucher.publicationId), so a
 * publication of 50 vouchers needs no 50 entries. Each view has a count (sharded).
 */
export const ALL_PUBLICATIONS = 'ALL';
export const REFERRAL_PUBLICATIONS = 'REFERRAL';
export const customerView = (customerId: string): string => `CUSTOMER#${customerId}`;
export const campaignView = (campaignId: string): string => `CAMPAIGN#${campaignId}`;
export const voucherView = (voucherId: string): string => `VOUCHER#${voucherId}`;
export const typeView = (type: VoucherType): string => `TYPE#${type}`;

/** Every view a publication is listed in, `ALL` first; `genericVoucherId` names a generic code it gave. */
export function viewsOf(p: Pick<Publication, 'customerId' | 'campaignId' | 'voucherType' | 'isReferralCode'>, genericVoucherId: string | null): string[] {
  return [
    ALL_PUBLICATIONS,
    customerView(p.customerId),
    ...(p.campaignId !== null ? [campaignView(p.campaignId)] : []),
    typeView(p.voucherType),
    ...(p.isReferralCode ? [REFERRAL_PUBLICATIONS] : []),
    ...(genericVoucherId !== null ? [voucherView(genericVoucherId)] : []),
  ];
}

/** Count shards per view: concurrent publications seldom add to the same count item. */
export const COUNT_SHARDS = 8;

/** The count shard a publication adds to: fixed by its id. */
export const countShardOf = (publicationId: string): number => (createHash('sha256').update(publicationId).digest()[0] ?? 0) % COUNT_SHARDS;
