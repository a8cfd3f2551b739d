import type { TiersExpiration } from '../loyalties/tier-period.js';
import type { Camelize } from '../case.js';
import { InvalidCampaignError } from '../errors.js';
import type { Category } from '../categories/category.js';
import type { CodeConfig } from '../vouchers/code-generator.js';
import type { DiscountInput, GiftInput, LoyaltyCardTemplateInput, ValidityHoursInput, ValidityTimeframeInput } from './voucher-template.schema.js';
import type { ReferralProgramInput } from './campaign.schema.js';
import type { NotDoneRecord, ViewNumbers } from './campaign-views.js';

/** Campaign types of the spec. */
export const CAMPAIGN_TYPES = ['DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'LOYALTY_PROGRAM', 'REFERRAL_PROGRAM', 'PROMOTION'] as const;
export const CAMPAIGN_STATUSES = ['DONE', 'IN_PROGRESS', 'FAILED', 'DRAFT', 'MODIFYING'] as const;

/** Vouchers a campaign may be created with; above MAX_SYNC_VOUCHERS_ON_CREATE a worker generates them. */
export const MAX_VOUCHERS_ON_CREATE = 100_000;
/** Vouchers generated within the create request itself; more go to the jobs queue. */
export const MAX_SYNC_VOUCHERS_ON_CREATE = 1;
/** Promotion tiers per campaign: each needs a pointer item in the creating transaction (≤ 100 items). */
export const MAX_PROMOTION_TIERS = 50;

export type CampaignType = (typeof CAMPAIGN_TYPES)[number];
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export type GenerationType = 'AUTO_UPDATE' | 'STATIC' | 'STANDALONE';
export type VoucherType = 'DISCOUNT_VOUCHER' | 'GIFT_VOUCHER' | 'LOYALTY_CARD';

export type Discount = Camelize<DiscountInput>;
export type GiftTemplate = Camelize<GiftInput>;
export type LoyaltyCardTemplate = Camelize<LoyaltyCardTemplateInput>;
export type ValidityTimeframe = Camelize<ValidityTimeframeInput>;
export type ValidityHours = Camelize<ValidityHoursInput>;
export type ReferralProgram = Camelize<ReferralProgramInput>;

/** When a voucher or tier is valid, beyond its `active` switch. */
export interface Validity {
  startDate: string | null;
  expirationDate: string | null;
  validityTimeframe: ValidityTimeframe | null;
  validityDayOfWeek: number[] | null;
  validityHours: ValidityHours | null;
}

/** What every voucher of the campaign starts from. */
export interface VoucherTemplate {
  type: VoucherType;
  discount: Discount | null;
  gift: GiftTemplate | null;
  loyaltyCard: LoyaltyCardTemplate | null;
  /** Allowed redemptions per voucher; null = unlimited. */
  redemptionQuantity: number | null;
  codeConfig: CodeConfig;
  isReferralCode: boolean;
}

export interface PromotionTier extends Validity {
  id: string;
  name: string;
  banner: string | null;
  discount: Discount | null;
  metadata: Record<string, unknown>;
  active: boolean;
  hierarchy: number;
  createdAt: string;
  updatedAt: string | null;
}

/** One addition of vouchers to an existing campaign: its id (the request's, or its async action's), how many, when it completed. */
export interface VoucherAddition {
  id: string;
  count: number;
  at: string;
}

export interface Campaign extends Validity {
  id: string;
  projectId: string;
  name: string;
  /** Free text about the campaign (Voucherify's `description`); null when none was given. */
  description: string | null;
  campaignType: CampaignType;
  type: GenerationType;
  /** Null for a promotion, which has tiers instead. */
  voucher: VoucherTemplate | null;
  referralProgram: ReferralProgram | null;
  /** A loyalty program's `loyalty_tiers_expiration` (a copy rides on its tier item for the points changes); absent or null = none set. */
  loyaltyTiersExpiration?: TiersExpiration | null;
  /** Null unless campaignType is PROMOTION. */
  promotionTiers: PromotionTier[] | null;
  autoJoin: boolean;
  joinOnce: boolean;
  useVoucherMetadataSchema: boolean;
  activityDurationAfterPublishing: string | null;
  /** Vouchers currently in the campaign; changed only in the transaction that adds or removes one. */
  vouchersCount: number;
  /**
   * Vouchers ever added, raised with `vouchersCount` and never lowered: with it, it tells a reader
   * whether the campaign's vouchers changed between two reads (qualification-hints.ts codesMarker).
   * Absent on campaigns that got no voucher since it was added.
   */
  vouchersInserted?: number;
  active: boolean;
  metadata: Record<string, unknown>;
  createdAt: string;
  /**
   * Set by PUT, enable and disable (campaign-lifecycle.service.ts); a status change does not set it
   * (Voucherify reports that through `creation_status`). Once any campaign of a project has been
   * changed (`CampaignCounter.campaignsUpdated`), GET /v1/campaigns serves the `updated_at` orders
   * from the list entries instead of the creation-order indexes (campaign.service.ts listCampaigns).
   */
  updatedAt: string | null;
  /**
   * Raised by every change (PUT, enable, disable) and conditioned on by every change and delete, so
   * of two racing writes of one campaign the second re-reads. Absent (= 0) on campaigns never changed.
   */
  revision?: number;
  /**
   * Which request made the change at `revision` (PUT, enable, disable): the outbox reads it to name
   * the webhook event (campaign.updated, .enabled, .disabled), as setting the state a campaign
   * already has is still an enable. Absent on campaigns never changed (and on older changes: update).
   */
  lastChange?: 'update' | 'enable' | 'disable';
  /**
   * The last addition of vouchers to the campaign after its creation (POST /v1/campaigns/{campaignId}/vouchers[/{code}]),
   * set by the transaction whose vouchers complete it: the record of its `campaign.vouchers.aded` event. Never in a reply.
   */
  lastAddition?: VoucherAddition;
  creationStatus: CampaignStatus;
  vouchersGenerationStatus: CampaignStatus;
  protected: boolean;
  category: Category | null;
}

/** The fields of a campaign that listing filters and orders by, kept in its compact list entry. */
export interface CampaignListEntry {
  id: string;
  name: string;
  campaignType: Campaign['campaignType'];
  type: Campaign['type'];
  voucherType: string | null;
  creationStatus: CampaignStatus;
  isReferralCode: boolean;
  categoryId: string | null;
  categoryName: string | null;
  active: boolean;
  startDate: string | null;
  expirationDate: string | null;
  validityDayOfWeek: number[] | null;
  createdAt: string;
  updatedAt: string | null;
  /** Creation number in the project (1, 2, 3, … without gaps): orders campaigns created in the same millisecond. */
  sequence: number;
  /**
   * The campaign's number in each of its filter views (campaign-views.ts `campaignViews`: type,
   * referral flag, both), 1, 2, 3, … without gaps per view. Absent on entries written before the
   * views existed, until `npm run admin -- backfill campaign-filters` numbers them.
   */
  viewNumbers?: ViewNumbers;
}

/**
 * The project's campaign counter: campaigns so far and the newest `createdAt`, and, once the
 * project's filter views are complete (`views` present), what GET /v1/campaigns needs to answer
 * `campaign_type` / `campaign_status` / `is_referral_code` from key ranges (docs/architecture.md
 * "Listing campaigns without a scan").
 */
export interface CampaignCounter {
  campaignCount: number;
  lastCreatedAt: string;
  /** Campaigns per filter view (by view name; ALL is `campaignCount`). Present ⇔ every campaign of the project has its view entries. */
  views?: Record<string, number>;
  /** The campaigns whose creation status is not DONE, by campaign id (at most MAX_NOT_DONE; see `notDoneOverflow`). */
  notDone?: Record<string, NotDoneRecord>;
  /** Set when `notDone` outgrew MAX_NOT_DONE: it is emptied and no longer kept until a backfill rebuilds it. */
  notDoneOverflow?: boolean;
  /** Status changes made while `notDone` was not kept (no views yet, or overflow), so a backfill notices one made during its read. */
  statusMoves?: number;
  /**
   * Campaigns deleted so far. Each is kept in `notDone` as a DELETED record (its numbers are then
   * skipped by every page plan); when `notDone` does not hold that many DELETED records (overflow,
   * a backfill that rebuilt it), listings read the list entries instead (campaign.service.ts planFromCounter).
   */
  deletedCount?: number;
  /** Set by the first change of any campaign of the project: `updated_at` orders are no longer creation order. */
  campaignsUpdated?: boolean;
}

/** A campaign with a voucher template: its vouchers can be generated (not a promotion, not STANDALONE), or it is a STANDALONE one a created voucher joins. */
export type VoucherCampaign = Campaign & { voucher: VoucherTemplate };

/**
 * @throws InvalidCampaignError when a voucher created by POST /v1/vouchers[/{code}] cannot join the
 * campaign: a STANDALONE discount or gift campaign takes it (the reference: "the voucher will be added
 * to this campaign"), as does any campaign whose vouchers can be generated.
 */
export function assertTakesCreatedVouchers(campaign: Campaign): asserts campaign is VoucherCampaign {
  if (campaign.type === 'STANDALONE' && campaign.voucher && (campaign.campaignType === 'DISCOUNT_COUPONS' || campaign.campaignType === 'GIFT_VOUCHERS')) return;
  assertGeneratesVouchers(campaign);
}

/** @throws InvalidCampaignError when the campaign cannot hold generated vouchers (Voucherify's wording). */
export function assertGeneratesVouchers(campaign: Campaign): asserts campaign is VoucherCampaign {
  if (campaign.campaignType === 'PROMOTION' || campaign.type === 'STANDALONE' || !campaign.voucher) {
    const kind = campaign.campaignType === 'PROMOTION' ? 'PROMOTION' : campaign.type;
    throw new InvalidCampaignError(`You can not generate vouchers for ${kind} type campaign.`);
  }
}
