import type { Discount, GiftTemplate, LoyaltyCardTemplate, Validity, VoucherAddition, VoucherCampaign, VoucherTemplate } from '../campaigns/campaign.js';
import type { Category } from '../categories/category.js';
import { RETRY, retryOnConflict, type TransactItem } from '../db/transact.js';
import { CodeSpaceExhaustedError, DuplicateError, InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { type CodeConfig, CodeSampler, codeCapacity, codeLength, dotSegmentCodeOf, MAX_CODE_LENGTH } from './code-generator.js';
import type { Voucher } from './voucher.js';
import { insertVouchers, MAX_VOUCHERS_PER_TRANSACTION } from './voucher.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** What a request may set on the vouchers it adds; everything else comes from the campaign. */
export interface VoucherOverrides {
  category: Category | null;
  metadata?: Record<string, unknown> | undefined;
  /** undefined = the campaign's; null = unlimited. */
  redemptionQuantity?: number | null | undefined;
  additionalInfo?: string | undefined;
  startDate?: string | undefined;
  expirationDate?: string | undefined;
  /** Replaces the campaign's code configuration for these vouchers. */
  codeConfig?: CodeConfig | undefined;
  /** undefined = active. */
  active?: boolean | undefined;
  /** A benefit of the voucher's own (POST /v1/vouchers/{code}); undefined = the campaign's. */
  discount?: Discount | undefined;
  gift?: GiftTemplate | undefined;
  loyaltyCard?: LoyaltyCardTemplate | undefined;
  /** undefined = the campaign's. */
  validityTimeframe?: Validity['validityTimeframe'] | undefined;
  validityDayOfWeek?: Validity['validityDayOfWeek'] | undefined;
  validityHours?: Validity['validityHours'] | undefined;
}

/** Where a new voucher's defaults come from: its campaign, or (a standalone voucher) the request itself. */
export interface VoucherSource extends Validity {
  projectId: string;
  campaignId: string | null;
  campaignName: string | null;
  template: Pick<VoucherTemplate, 'type' | 'discount' | 'gift' | 'loyaltyCard' | 'redemptionQuantity' | 'isReferralCode'>;
}

/** A campaign as the source of its new vouchers. */
export const campaignSource = (c: VoucherCampaign): VoucherSource => ({
  projectId: c.projectId,
  campaignId: c.id,
  campaignName: c.name,
  template: c.voucher,
  startDate: c.startDate,
  expirationDate: c.expirationDate,
  validityTimeframe: c.validityTimeframe,
  validityDayOfWeek: c.validityDayOfWeek,
  validityHours: c.validityHours,
});

/**
 * A new gift card's credits: the template's amount, less what the template says is already spent;
 * its balance is the template's, else what is left.
 */
export function giftOf(g: GiftTemplate): NonNullable<Voucher['gift']> {
  const subtractedAmount = g.subtractedAmount ?? 0;
  return { amount: g.amount, subtractedAmount, balance: g.balance ?? g.amount - subtractedAmount, effect: g.effect ?? null };
}

/**
 * A new voucher of the campaign: its template's type and benefit, the campaign's validity, and
 * the request's overrides. A gift card starts with its full amount, a loyalty card with its points.
 * @throws InvalidPayloadError when the resulting expiration date precedes the start date.
 */
export function newVoucher(deps: Pick<Runtime, 'clock' | 'ids'>, campaign: VoucherCampaign, code: string, o: VoucherOverrides): Voucher {
  return buildVoucher(deps, campaignSource(campaign), code, o);
}

/**
 * A new voucher from its source (a campaign, or a standalone voucher's request) and the overrides.
 * @throws InvalidPayloadError when the resulting expiration date precedes the start date.
 */
export function buildVoucher(deps: Pick<Runtime, 'clock' | 'ids'>, source: VoucherSource, code: string, o: VoucherOverrides): Voucher {
  const t = source.template;
  const gift = o.gift ?? t.gift;
  const loyaltyCard = o.loyaltyCard ?? t.loyaltyCard;
  const startDate = o.startDate ?? source.startDate;
  const expirationDate = o.expirationDate ?? source.expirationDate;
  if (startDate && expirationDate && expirationDate < startDate) {
    throw new InvalidPayloadError(`The voucher would expire (${expirationDate}) before it starts (${startDate})`);
  }
  return {
    id: deps.ids.id('v'),
    code,
    projectId: source.projectId,
    campaignId: source.campaignId,
    campaignName: source.campaignName,
    category: o.category,
    type: t.type,
    discount: o.discount ?? t.discount,
    gift: gift ? giftOf(gift) : null,
    loyaltyCard: loyaltyCard
      ? {
          points: loyaltyCard.points,
          balance: loyaltyCard.points,
          nextExpirationDate: null,
          nextExpirationPoints: null,
          pendingPoints: 0,
          expiredPoints: 0,
          subtractedPoints: 0,
        }
      : null,
    startDate,
    expirationDate,
    validityTimeframe: o.validityTimeframe === undefined ? source.validityTimeframe : o.validityTimeframe,
    validityDayOfWeek: o.validityDayOfWeek === undefined ? source.validityDayOfWeek : o.validityDayOfWeek,
    validityHours: o.validityHours === undefined ? source.validityHours : o.validityHours,
    active: o.active ?? true,
    additionalInfo: o.additionalInfo ?? null,
    metadata: o.metadata ?? {},
    isReferralCode: t.isReferralCode,
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
    holderId: null,
    referrerId: null,
    redemptionQuantity: o.redemptionQuantity === undefined ? t.redemptionQuantity : o.redemptionQuantity,
    redeemedQuantity: 0,
    redeemedPoints: 0,
    publishCount: 0,
  };
}

/**
 * Checks up front that `count` more codes can exist: the code length fits, and the pattern's
 * space holds them. With the campaign's own configuration its current vouchers count as used.
 * @throws InvalidPayloadError (too long), CodeSpaceExhaustedError (too few codes left).
 */
export function assertCodesFit(config: CodeConfig, count: number, alreadyUsed: number): void {
  const length = codeLength(config);
  if (length > MAX_CODE_LENGTH) {
    throw new InvalidPayloadError(`Codes of this code_config would have ${length} characters; at most ${MAX_CODE_LENGTH} are allowed`);
  }
  const capacity = codeCapacity(config);
  if (BigInt(alreadyUsed) + BigInt(count) > capacity) {
    const dotSegment = dotSegmentCodeOf(config);
    throw new CodeSpaceExhaustedError(
      `Pattern ${config.pattern} with a charset of ${config.charset.length} characters allows ${capacity} codes` +
        `${dotSegment === null ? '' : ` (not counting "${dotSegment}", which is never generated: no HTTP client can address it)`}; ` +
        `${alreadyUsed} are in use and ${count} more were requested`,
    );
  }
}

/** A bulk job's guard failed: another worker moved the job on meanwhile, and nothing was written. */
export class GenerationGuardFailedError extends Error {
  override readonly name = 'GenerationGuardFailedError';

  constructor() {
    super('The generation guard failed: the job moved on meanwhile');
  }
}

/** A pinned generation's campaign is gone or changed since it was read (re-read it and build the vouchers again). */
export class CampaignChangedError extends Error {
  override readonly name = 'CampaignChangedError';

  constructor(campaignId: string) {
    super(`Campaign ${campaignId} changed while its vouchers were being generated`);
  }
}

/**
 * Generates `count` vouchers with random codes and adds them to the campaign, in transactions of
 * up to MAX_VOUCHERS_PER_TRANSACTION vouchers that also raise its `vouchersCount`. A code already
 * taken in the project is replaced by a fresh candidate (conditional puts: nothing is ever
 * overwritten); a crowded pattern ends in CodeSpaceExhaustedError rather than a loop.
 * @returns the vouchers, in creation order.
 * @throws CodeSpaceExhaustedError, InvalidPayloadError, NotFoundError (campaign gone), ConflictRetryError,
 *   CampaignChangedError (pinned only).
 */
export async function generateVouchers(
  deps: Deps,
  campaign: VoucherCampaign,
  count: number,
  o: VoucherOverrides,
  /** Written with the vouchers (then count ≤ MAX_VOUCHERS_PER_TRANSACTION): a failed guard throws GenerationGuardFailedError. */
  guard?: TransactItem,
  /** Written with the first transaction of vouchers (a new category's items); see insertVouchers. */
  extra: readonly TransactItem[] = [],
  /**
   * `pinRevision`: every transaction holds only while the campaign is at the revision of `campaign`
   * (its template: discount, gift); otherwise CampaignChangedError, with nothing of that batch written.
   */
  options: { pinRevision?: boolean; addition?: Omit<VoucherAddition, 'at'> } = {},
): Promise<Voucher[]> {
  if (guard && count > MAX_VOUCHERS_PER_TRANSACTION) throw new Error(`A guarded generation holds at most ${MAX_VOUCHERS_PER_TRANSACTION} vouchers`);
  const config = o.codeConfig ?? campaign.voucher.codeConfig;
  assertCodesFit(config, count, o.codeConfig ? 0 : campaign.vouchersCount);
  const sampler = new CodeSampler(config, count);
  const made: Voucher[] = [];
  let pending: Voucher[] = [];
  let extraPending = extra;
  while (made.length < count) {
    // Extra items (a new category's: up to 3) take the places of vouchers in the first transaction.
    const batchSize = Math.min(MAX_VOUCHERS_PER_TRANSACTION - Math.ceil(extraPending.length / 2), count - made.length);
    // Each batch gets its own conflict retries; taken codes are replaced at once and are no conflict.
    await retryOnConflict(`Too many concurrent additions to campaign ${campaign.id}`, async () => {
      for (;;) {
        while (pending.length < batchSize) {
          const code = sampler.next();
          if (code === null) {
            throw new CodeSpaceExhaustedError(
              `No free code left for pattern ${config.pattern} after ${sampler.offered} candidates; ${made.length} of ${count} vouchers were added`,
            );
          }
          pending.push(newVoucher(deps, campaign, code, o));
        }
        const pin = options.pinRevision ? (campaign.revision ?? 0) : undefined;
        // The batch that completes an addition records it on the campaign (its webhook event).
        const addition = made.length + pending.length >= count ? options.addition : undefined;
        const outcome = await insertVouchers(deps, campaign.projectId, campaign.id, pending, guard, extraPending, pin, addition);
        if (outcome.kind === 'ok') return;
        if (outcome.kind === 'campaign_changed') throw new CampaignChangedError(campaign.id);
        if (outcome.kind === 'conflict') return RETRY;
        if (outcome.kind === 'guard_failed') throw new GenerationGuardFailedError();
        if (outcome.kind === 'campaign_missing') throw new NotFoundError('campaign', campaign.id);
        pending = pending.filter((v) => !outcome.codes.includes(v.code));
      }
    });
    made.push(...pending);
    pending = [];
    extraPending = [];
  }
  return made;
}

/**
 * Adds one voucher with the caller's code.
 * @throws DuplicateError when the code exists in the project (case-sensitive), NotFoundError, ConflictRetryError.
 */
export function addVoucherWithCode(
  deps: Deps,
  campaign: VoucherCampaign,
  code: string,
  o: VoucherOverrides,
  /** Written in the voucher's transaction (a new category's items); see insertVouchers. */
  extra: readonly TransactItem[] = [],
  /** The addition this voucher makes, recorded on the campaign (insertVouchers). */
  addition?: Omit<VoucherAddition, 'at'>,
): Promise<Voucher> {
  const voucher = newVoucher(deps, campaign, code, o);
  return retryOnConflict(`Too many concurrent additions to campaign ${campaign.id}`, async () => {
    const outcome = await insertVouchers(deps, campaign.projectId, campaign.id, [voucher], undefined, extra, undefined, addition);
    if (outcome.kind === 'ok') return voucher;
    if (outcome.kind === 'codes_taken') throw new DuplicateError('voucher', `Duplicated voucher exists with code ${code}`, code);
    if (outcome.kind === 'campaign_missing') throw new NotFoundError('campaign', campaign.id);
    return RETRY;
  });
}
