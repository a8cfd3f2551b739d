import * as entities from '../db/entities.js';
import { ConflictRetryError, InvalidCampaignError, InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { camelize } from '../case.js';
import { type Campaign, MAX_PROMOTION_TIERS, type PromotionTier } from './campaign.js';
import { loadCampaign, listCampaigns, newPromotionTier, validityOf } from './campaign.service.js';
import type { AddPromotionTierToCampaignBody, ListPromotionTiersQuery, UpdatePromotionTierBody } from './promotion-tier.schema.js';
import { appendPromotionTier, removePromotionTier, replacePromotionTier } from './promotion-tier.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids' | 'clock'>;

/** Re-reads of a campaign whose tiers changed under a write before giving up (ConflictRetryError). */
const MAX_REREADS = 10;
/** Promotion campaigns GET /v1/promotions/tiers reads, at most (pages of 100 from the campaign list's PROMOTION view). */
export const MAX_LISTED_PROMOTIONS = 1000;

export interface TierInCampaign {
  campaign: Campaign;
  tier: PromotionTier;
}

const byHierarchy = (a: PromotionTier, b: PromotionTier): number => a.hierarchy - b.hierarchy || a.createdAt.localeCompare(b.createdAt);

/** A promotion campaign (by id or name). @throws NotFoundError; InvalidCampaignError for a campaign of another type. */
async function getPromotion(deps: Deps, projectId: string, campaignRef: string): Promise<Campaign> {
  const campaign = await loadCampaign(deps, projectId, campaignRef);
  if (campaign.campaignType !== 'PROMOTION') {
    throw new InvalidCampaignError(`Campaign ${campaignRef} is ${campaign.campaignType}: promotion tiers belong to PROMOTION campaigns`);
  }
  return campaign;
}

/**
 * GET /v1/promotions/tiers/{promotionTierId}: the tier's pointer names its campaign, whose item holds the tier.
 * @throws NotFoundError (promotion_tier).
 */
export async function getPromotionTier(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, tierId: string): Promise<TierInCampaign> {
  const ref = await entities.promotionTierRef.get(deps, entities.promotionTierRef.key(projectId, tierId), { consistent: true });
  const campaign = ref ? await entities.campaign.get(deps, entities.campaign.key(projectId, ref.campaignId), { consistent: true }) : null;
  const tier = campaign?.promotionTiers?.find((t) => t.id === tierId);
  if (!campaign || !tier) throw new NotFoundError('promotion_tier', tierId);
  return { campaign, tier };
}

/** GET /v1/promotions/{campaignId}/tiers: the campaign's tiers in hierarchy order. @throws NotFoundError; InvalidCampaignError. */
export async function listPromotionTiersFromCampaign(deps: Deps, projectId: string, campaignRef: string): Promise<TierInCampaign[]> {
  const campaign = await getPromotion(deps, projectId, campaignRef);
  return [...(campaign.promotionTiers ?? [])].sort(byHierarchy).map((tier) => ({ campaign, tier }));
}

/**
 * POST /v1/promotions/{campaignId}/tiers: appends a tier (hierarchy after the last one unless
 * given), conditioned on the tiers as read; a lost race re-reads.
 * @throws NotFoundError; InvalidCampaignError (not a promotion, or MAX_PROMOTION_TIERS reached); InvalidPayloadError (validity).
 */
export async function addPromotionTierToCampaign(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  body: AddPromotionTierToCampaignBody,
): Promise<TierInCampaign> {
  for (let round = 0; round < MAX_REREADS; round++) {
    const campaign = await getPromotion(deps, projectId, campaignRef);
    const tiers = campaign.promotionTiers ?? [];
    if (tiers.length >= MAX_PROMOTION_TIERS) throw new InvalidCampaignError(`A promotion has at most ${MAX_PROMOTION_TIERS} tiers`);
    const next = tiers.reduce((max, t) => Math.max(max, t.hierarchy), 0) + 1;
    const tier = newPromotionTier(deps, body, next, deps.clock.now().toISOString(), '.');
    if ((await appendPromotionTier(deps, campaign, tier)) === 'ok') return { campaign: { ...campaign, promotionTiers: [...tiers, tier] }, tier };
  }
  throw new ConflictRetryError(`Too many concurrent writes: tiers of campaign ${campaignRef}`);
}

/**
 * Reads the tier, applies `change` to it and writes it back while the tier is as read; a lost race re-reads.
 * @throws NotFoundError (promotion_tier); whatever `change` throws.
 */
async function changeTier(deps: Deps, projectId: string, tierId: string, change: (tier: PromotionTier, now: string) => PromotionTier): Promise<TierInCampaign> {
  for (let round = 0; round < MAX_REREADS; round++) {
    const { campaign } = await getPromotionTier(deps, projectId, tierId);
    const tiers = campaign.promotionTiers ?? [];
    const index = tiers.findIndex((t) => t.id === tierId);
    const read = tiers[index];
    if (!read) throw new NotFoundError('promotion_tier', tierId);
    const tier = change(read, deps.clock.now().toISOString());
    if ((await replacePromotionTier(deps, campaign, index, tier)) === 'ok') {
      return { campaign: { ...campaign, promotionTiers: tiers.map((t, i) => (i === index ? tier : t)) }, tier };
    }
  }
  throw new ConflictRetryError(`Too many concurrent writes: promotion tier ${tierId}`);
}

/**
 * PUT /v1/promotions/tiers/{promotionTierId}: the fields sent replace the tier's (validity fields
 * sent as null are cleared); the resulting validity window is checked as on creation.
 * @throws NotFoundError; InvalidPayloadError (validity, or an `id` other than the path's).
 */
export function updatePromotionTier(deps: Deps, projectId: string, tierId: string, body: UpdatePromotionTierBody): Promise<TierInCampaign> {
  if (body.id !== undefined && body.id !== tierId) {
    return Promise.reject(new InvalidPayloadError(`Property .id must be the path's tier id (${tierId}) when sent`));
  }
  return changeTier(deps, projectId, tierId, (t, now) => {
    const has = (k: keyof UpdatePromotionTierBody) => body[k] !== undefined;
    const validity = validityOf(
      {
        start_date: has('start_date') ? body.start_date : t.startDate,
        expiration_date: has('expiration_date') ? body.expiration_date : t.expirationDate,
        validity_timeframe: has('validity_timeframe') ? body.validity_timeframe : t.validityTimeframe,
        validity_day_of_week: has('validity_day_of_week') ? body.validity_day_of_week : t.validityDayOfWeek,
        validity_hours: has('validity_hours') ? body.validity_hours : null,
      },
      '.',
    );
    return {
      ...t,
      name: body.name ?? t.name,
      banner: body.banner ?? t.banner,
      discount: body.action ? camelize(body.action.discount) : t.discount,
      metadata: body.metadata ?? t.metadata,
      active: body.active ?? t.active,
      hierarchy: body.hierarchy ?? t.hierarchy,
      ...validity,
      validityHours: has('validity_hours') ? validity.validityHours : t.validityHours,
      updatedAt: now,
    };
  });
}

/** POST /v1/promotions/tiers/{promotionTierId}/enable. @throws NotFoundError. */
export function enablePromotionTier(deps: Deps, projectId: string, tierId: string): Promise<TierInCampaign> {
  return changeTier(deps, projectId, tierId, (t, now) => ({ ...t, active: true, updatedAt: now }));
}

/** POST /v1/promotions/tiers/{promotionTierId}/disable: validations and redemptions answer promotion_inactive from now on. @throws NotFoundError. */
export function disablePromotionTier(deps: Deps, projectId: string, tierId: string): Promise<TierInCampaign> {
  return changeTier(deps, projectId, tierId, (t, now) => ({ ...t, active: false, updatedAt: now }));
}

/**
 * DELETE /v1/promotions/tiers/{promotionTierId}: the tier leaves its campaign and its id stops
 * resolving (validations answer resource_not_found), in one transaction. Its redemptions stay.
 * @throws NotFoundError.
 */
export async function deletePromotionTier(deps: Deps, projectId: string, tierId: string): Promise<void> {
  for (let round = 0; round < MAX_REREADS; round++) {
    const { campaign } = await getPromotionTier(deps, projectId, tierId);
    const index = (campaign.promotionTiers ?? []).findIndex((t) => t.id === tierId);
    if ((await removePromotionTier(deps, campaign, index)) === 'ok') return;
  }
  throw new ConflictRetryError(`Too many concurrent writes: promotion tier ${tierId}`);
}

/** Active, in an active campaign, started and not expired (neither the tier's nor the campaign's dates). */
function isAvailable({ campaign, tier }: TierInCampaign, now: string): boolean {
  const within = (v: { startDate: string | null; expirationDate: string | null }) =>
    (v.startDate === null || v.startDate <= now) && (v.expirationDate === null || v.expirationDate > now);
  return tier.active && campaign.active && within(tier) && within(campaign);
}

export interface PromotionTierPage {
  tiers: TierInCampaign[];
  total: number;
}

/**
 * GET /v1/promotions/tiers: the tiers of the project's promotion campaigns (read through the
 * campaign list's PROMOTION view, pages of 100, at most MAX_LISTED_PROMOTIONS campaigns), ordered
 * by creation or last change (a tier never changed counts its creation), `is_available` keeping
 * only those a validation could apply now.
 */
export async function listPromotionTiers(deps: Deps, projectId: string, query: ListPromotionTiersQuery): Promise<PromotionTierPage> {
  const all: TierInCampaign[] = [];
  for (let page = 1; page <= MAX_LISTED_PROMOTIONS / 100; page++) {
    const { campaigns } = await listCampaigns(deps, projectId, { limit: 100, page, campaign_type: 'PROMOTION', order: 'created_at' });
    for (const campaign of campaigns) for (const tier of campaign.promotionTiers ?? []) all.push({ campaign, tier });
    if (campaigns.length < 100) break;
  }
  const now = deps.clock.now().toISOString();
  const kept =
    query.is_available === true ? all.filter((t) => isAvailable(t, now)) : query.is_available === false ? all.filter((t) => !isAvailable(t, now)) : all;
  const at = query.order.endsWith('updated_at') ? (t: TierInCampaign) => t.tier.updatedAt ?? t.tier.createdAt : (t: TierInCampaign) => t.tier.createdAt;
  const direction = query.order.startsWith('-') ? -1 : 1;
  kept.sort((a, b) => direction * (at(a).localeCompare(at(b)) || a.tier.id.localeCompare(b.tier.id)));
  const start = (query.page - 1) * query.limit;
  return { tiers: kept.slice(start, start + query.limit), total: kept.length };
}
