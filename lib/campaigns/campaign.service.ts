import { camelize } from '../case.js';
import { currentCategories, withCategory, withCurrentCategories, withCurrentCategory } from '../categories/category.service.js';
import { DuplicateError, InvalidPayloadError, NotFoundError } from '../errors.js';
import { resolveReferralProgram } from '../referrals/referral.service.js';
import type { Runtime } from '../runtime.js';
import { enforceMetadata } from '../metadata-schemas/metadata-enforcement.js';
import { resolveCodeConfig } from '../vouchers/code-generator.js';
import type { JobQueue } from '../jobs/job.js';
import { enqueueVoucherGeneration } from '../vouchers/bulk-generation.js';
import { assertCodesFit, generateVouchers } from '../vouchers/voucher-generation.js';
import { assertGeneratesVouchers, MAX_SYNC_VOUCHERS_ON_CREATE, type Campaign, type PromotionTier, type Validity, type VoucherTemplate } from './campaign.js';
import { campaignFilterPredicate } from './campaign-filters.js';
import { ALL_VIEW, DELETED, type PagePlan, planPage, viewOf } from './campaign-views.js';
import type { ListCampaignsQuery } from './campaign-list.schema.js';
import type { CreateCampaignBody, PromotionTierInput } from './campaign.schema.js';
import type { ValidityHoursInput } from './voucher-template.schema.js';
import type { CampaignCounter, CampaignListEntry } from './campaign.repo.js';
import * as repo from './campaign.repo.js';
import type { ValidationRuleAssignment } from '../validation-rules/validation-rule.js';
import { getObjectAssignments } from '../validation-rules/validation-rule.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** Campaign ids as this service makes them (`camp_` + base62); only such strings are looked up as ids. */
const CAMPAIGN_ID = /^camp_[0-9A-Za-z]{1,64}$/;
const MAX_NAME_LENGTH = 200;

interface ValidityInput {
  start_date?: string | null | undefined;
  expiration_date?: string | null | undefined;
  validity_timeframe?: { interval: string; duration: string } | null | undefined;
  validity_day_of_week?: number[] | null | undefined;
  validity_hours?: ValidityHoursInput | null | undefined;
}

/**
 * The validity window of a campaign or tier.
 * @throws InvalidPayloadError when expiration precedes start, or a timeframe comes without a start date (spec).
 */
export function validityOf(input: ValidityInput, where: string): Validity {
  const startDate = input.start_date ?? null;
  const expirationDate = input.expiration_date ?? null;
  if (startDate && expirationDate && expirationDate < startDate) {
    throw new InvalidPayloadError(`Property ${where}expiration_date must not be before start_date`);
  }
  if (input.validity_timeframe && !startDate) {
    throw new InvalidPayloadError(`Property ${where}start_date is required when validity_timeframe is given`);
  }
  return {
    startDate,
    expirationDate,
    validityTimeframe: input.validity_timeframe ?? null,
    validityDayOfWeek: input.validity_day_of_week ?? null,
    validityHours: input.validity_hours ? camelize(input.validity_hours) : null,
  };
}

function voucherTemplateOf(body: CreateCampaignBody): VoucherTemplate | null {
  if (body.campaign_type === 'PROMOTION') return null;
  const v = body.voucher;
  return {
    type: v.type,
    discount: 'discount' in v ? camelize(v.discount) : null,
    gift: 'gift' in v ? camelize(v.gift) : null,
    loyaltyCard: 'loyalty_card' in v ? camelize(v.loyalty_card) : null,
    redemptionQuantity: v.redemption?.quantity ?? null,
    codeConfig: resolveCodeConfig(v.code_config ? camelize(v.code_config) : undefined),
    isReferralCode: body.campaign_type === 'REFERRAL_PROGRAM' ? (body.voucher.is_referral_code ?? true) : false,
  };
}

function tiersOf(deps: Deps, tiers: PromotionTierInput[], now: string): PromotionTier[] {
  return tiers.map((t, index) => newPromotionTier(deps, t, index + 1, now, `.promotion.tiers.${index}.`));
}

/**
 * A new promotion tier from its request (create-campaign's `promotion.tiers[]`, add-promotion-tier-to-campaign).
 * @throws InvalidPayloadError for an inconsistent validity window (`where` names the property's place).
 */
export function newPromotionTier(deps: Pick<Runtime, 'ids'>, t: PromotionTierInput, hierarchy: number, now: string, where: string): PromotionTier {
  return {
    id: deps.ids.id('promo'),
    name: t.name,
    banner: t.banner ?? null,
    discount: t.action ? camelize(t.action.discount) : null,
    metadata: t.metadata ?? {},
    active: t.active ?? true,
    hierarchy: t.hierarchy ?? hierarchy,
    createdAt: now,
    updatedAt: null,
    ...validityOf(t, where),
  };
}

/**
 * Creates a campaign of any of the five types, then, when `vouchers_count` asks for it, its
 * first vouchers: up to MAX_SYNC_VOUCHERS_ON_CREATE within the request, more through an async
 * action on the jobs queue (the reply then shows IN_PROGRESS). The campaign reports IN_PROGRESS
 * while they are generated, DONE after, FAILED if generation could not finish.
 * A referral program converting on a custom event names an existing custom event schema (resolveReferralProgram).
 * @throws DuplicateError (name taken), InvalidPayloadError, InvalidCampaignError, NotFoundError (category_id, custom_event_schema), MetadataValidationError,
 *   CodeSpaceExhaustedError (the pattern cannot hold vouchers_count codes; checked before anything is written).
 */
export async function createCampaign(
  deps: Deps & Partial<Pick<Runtime, 'metadataSchemaCache'>> & { jobs: JobQueue },
  projectId: string,
  body: CreateCampaignBody,
  requestId: string,
): Promise<Campaign> {
  // A new campaign: no metadata sent is checked as none (a required property is missing).
  await enforceMetadata(deps, projectId, 'campaign', body.metadata ?? {});
  const now = deps.clock.now().toISOString();
  const type = body.type ?? (body.campaign_type === 'PROMOTION' ? 'STATIC' : 'AUTO_UPDATE');
  const vouchersWanted = body.vouchers_count ?? 0;
  const validity = validityOf(body, '.');
  const draft: Campaign = {
    id: deps.ids.id('camp'),
    projectId,
    name: body.name,
    description: body.description ?? null,
    campaignType: body.campaign_type,
    type,
    voucher: voucherTemplateOf(body),
    referralProgram:
      body.campaign_type === 'REFERRAL_PROGRAM'
        ? await resolveReferralProgram(deps, projectId, body.referral_program ? camelize(body.referral_program) : undefined)
        : null,
    promotionTiers: body.campaign_type === 'PROMOTION' ? tiersOf(deps, body.promotion?.tiers ?? [], now) : null,
    autoJoin: body.auto_join ?? false,
    joinOnce: body.join_once ?? false,
    useVoucherMetadataSchema: body.use_voucher_metadata_schema ?? false,
    activityDurationAfterPublishing: body.activity_duration_after_publishing ?? null,
    vouchersCount: 0,
    active: body.active ?? true,
    metadata: body.metadata ?? {},
    createdAt: now,
    updatedAt: null,
    creationStatus: vouchersWanted > 0 ? 'IN_PROGRESS' : 'DONE',
    vouchersGenerationStatus: vouchersWanted > 0 ? 'IN_PROGRESS' : 'DONE',
    protected: false,
    category: null,
    ...validity,
  };
  if (vouchersWanted > 0) {
    assertGeneratesVouchers(draft);
    assertCodesFit(draft.voucher.codeConfig, vouchersWanted, 0);
  }
  // A new category is written in the campaign's transaction, so a refused campaign leaves none behind.
  const campaign = await withCategory(deps, projectId, { name: body.category, id: body.category_id }, async ({ category, items }) => {
    const inserted = await repo.insertCampaign(deps, { ...draft, category }, items);
    if (!inserted) throw new DuplicateError('campaign', `Duplicated campaign exists with name ${draft.name}`, draft.name);
    return inserted;
  });
  if (vouchersWanted === 0) return campaign;
  assertGeneratesVouchers(campaign);
  if (vouchersWanted > MAX_SYNC_VOUCHERS_ON_CREATE) {
    try {
      await enqueueVoucherGeneration(deps, campaign, vouchersWanted, { category: null }, { requestId, campaignCreation: true });
    } catch (error) {
      await repo.setCampaignStatus(deps, campaign, 'FAILED');
      throw error;
    }
    return campaign;
  }
  try {
    await generateVouchers(deps, campaign, vouchersWanted, { category: null });
  } catch (error) {
    await repo.setCampaignStatus(deps, campaign, 'FAILED');
    throw error;
  }
  await repo.setCampaignStatus(deps, campaign, 'DONE');
  return requireCampaign(deps, projectId, campaign.id);
}

async function requireCampaign(deps: Deps, projectId: string, campaignId: string): Promise<Campaign> {
  const found = await repo.getCampaign(deps, projectId, campaignId);
  if (!found) throw new NotFoundError('campaign', campaignId);
  return found;
}

/**
 * A campaign by id or by name (Voucherify accepts either in `{campaignId}`); an id wins when a
 * string is both. Its category is the category as it is now (renamed, or null once deleted).
 * @throws NotFoundError with the given reference as resource_id.
 */
export async function loadCampaign(deps: Deps, projectId: string, idOrName: string): Promise<Campaign> {
  const { found } = await campaignByRef(deps, projectId, idOrName);
  return withCurrentCategory(deps, projectId, found);
}

/**
 * GET /v1/campaigns/{campaignId}'s reply: the campaign as loadCampaign gives it, with its validation
 * rule assignments. A reference shaped like an id has its assignments read in the same round as
 * the campaign (the usual case: no round after the campaign unless it has a category); one found
 * by name has them read beside its category.
 * @throws NotFoundError with the given reference as resource_id.
 */
export async function getCampaign(deps: Deps, projectId: string, idOrName: string): Promise<{ campaign: Campaign; assignments: ValidationRuleAssignment[] }> {
  const { found, readBeside } = await campaignByRef(deps, projectId, idOrName, (id) => getObjectAssignments(deps, projectId, id));
  const [campaign, held] = await Promise.all([withCurrentCategory(deps, projectId, found), readBeside ?? getObjectAssignments(deps, projectId, found.id)]);
  return { campaign, assignments: held.assignments };
}

/**
 * The stored campaign by id or name, and `besideId`'s result for the id when the reference is the
 * campaign's id (read in the same round as the campaign; undefined when found by name).
 */
async function campaignByRef<T>(
  deps: Deps,
  projectId: string,
  idOrName: string,
  besideId?: (id: string) => Promise<T>,
): Promise<{ found: Campaign; readBeside: T | undefined }> {
  const maybeId = CAMPAIGN_ID.test(idOrName);
  const [byId, idForName, beside] = await Promise.all([
    maybeId ? repo.getCampaign(deps, projectId, idOrName) : Promise.resolve(null),
    idOrName.length <= MAX_NAME_LENGTH ? repo.getCampaignIdByName(deps, projectId, idOrName) : Promise.resolve(null),
    maybeId && besideId ? besideId(idOrName) : Promise.resolve(undefined),
  ]);
  const found = byId ?? (idForName ? await repo.getCampaign(deps, projectId, idForName) : null);
  if (!found) throw new NotFoundError('campaign', idOrName);
  return { found, readBeside: byId ? beside : undefined };
}

export interface CampaignPage {
  campaigns: Campaign[];
  /** All campaigns matching the query, on every page. */
  total: number;
}

const sortKey = (order: ListCampaignsQuery['order']) => {
  const tie = (e: CampaignListEntry) => String(e.sequence).padStart(12, '0');
  return order.endsWith('updated_at')
    ? (e: CampaignListEntry) => `${e.updatedAt ?? e.createdAt}#${tie(e)}`
    : (e: CampaignListEntry) => `${e.createdAt}#${tie(e)}`;
};

const hasFilters = (query: ListCampaignsQuery): boolean => Object.keys(query.filters ?? {}).some((k) => k !== 'junction');

/**
 * The page plan of a listing the counter can serve (campaign-views.ts planPage), or null when it
 * cannot: a type or referral filter before the project's views are complete, or a status filter
 * while the set of campaigns that are not DONE is not kept (no views yet, or overflow).
 */
function planFromCounter(counter: CampaignCounter | null, query: ListCampaignsQuery, offset: number): { view: string; plan: PagePlan } | null {
  const filter = { campaignType: query.campaign_type, isReferralCode: query.is_referral_code, status: query.campaign_status };
  const view = viewOf(filter);
  if (!counter) return { view: view.name, plan: { total: 0, reads: [] } };
  // Once a campaign was changed, updated_at order is no longer creation order: sort the list entries instead.
  if (counter.campaignsUpdated && query.order.endsWith('updated_at')) return null;
  // Every deleted campaign must be a DELETED record for the plan to skip its numbers; otherwise read the list entries.
  const tombstones = Object.values(counter.notDone ?? {}).filter((r) => r.s === DELETED).length;
  if ((counter.deletedCount ?? 0) !== tombstones) return null;
  if (view.name !== ALL_VIEW && !counter.views) return null;
  if (filter.status !== undefined && (!counter.views || counter.notDoneOverflow)) return null;
  const viewSize = view.name === ALL_VIEW ? counter.campaignCount : (counter.views?.[view.name] ?? 0);
  // updated_at orders are creation order until a campaign is changed (checked above; Campaign.updatedAt).
  const descending = query.order.startsWith('-');
  return { view: view.name, plan: planPage({ filter, viewSize, notDone: counter.notDone ?? {}, descending, offset, limit: query.limit }) };
}

/**
 * GET /v1/campaigns. Without `filters[…]`: `total` comes from the project's campaign counter (one
 * GetItem) and the page from key ranges of creation numbers or of the filter's view
 * (`campaign_type`, `is_referral_code`, both; a `campaign_status` adds arithmetic over the few
 * campaigns that are not DONE): the page's entries and nothing more, whatever the page number, the
 * order or the project's size. With `filters[…]` (or a project whose views are not backfilled yet)
 * the project's compact list entries are read, filtered, ordered and counted in memory (see
 * docs/architecture.md "Listing campaigns without a scan"). Either way only the page's campaigns
 * are read (one BatchGet of ≤ 100).
 */
export async function listCampaigns(deps: Deps, projectId: string, query: ListCampaignsQuery): Promise<CampaignPage> {
  const areaFilter = query.access_settings?.filter;
  const wantsAreas = !!areaFilter && Object.values(areaFilter).some((ids) => ids && ids.length > 0);
  if (wantsAreas) return { campaigns: [], total: 0 };
  const start = (query.page - 1) * query.limit;
  const descending = query.order.startsWith('-');
  if (!hasFilters(query)) {
    const served = planFromCounter(await repo.getCampaignCounter(deps, projectId), query, start);
    if (served) {
      const pageIds = await repo.campaignIdsOfPage(deps, projectId, served.view, served.plan.reads, descending);
      return { campaigns: await campaignsOf(deps, projectId, pageIds), total: served.plan.total };
    }
  }
  const matches = campaignFilterPredicate(query.filters ?? {}, deps.clock.now());
  const entries = (await withCurrentCategoryOfEntries(deps, projectId, await repo.listCampaignEntries(deps, projectId), query)).filter(
    (e) =>
      (query.campaign_type === undefined || e.campaignType === query.campaign_type) &&
      (query.campaign_status === undefined || e.creationStatus === query.campaign_status) &&
      (query.is_referral_code === undefined || e.isReferralCode === query.is_referral_code) &&
      matches(e),
  );
  const key = sortKey(query.order);
  const direction = descending ? -1 : 1;
  entries.sort((a, b) => (key(a) < key(b) ? -direction : key(a) > key(b) ? direction : 0));
  const pageIds = entries.slice(start, start + query.limit).map((e) => e.id);
  return { campaigns: await campaignsOf(deps, projectId, pageIds), total: entries.length };
}

/** The page's campaigns (one BatchGet of ≤ 100), each with its category as it is now (one more BatchGet, only if any has one). */
async function campaignsOf(deps: Deps, projectId: string, ids: string[]): Promise<Campaign[]> {
  return ids.length > 0 ? withCurrentCategories(deps, projectId, await repo.getCampaigns(deps, projectId, ids)) : [];
}

/**
 * List entries keep the category id and name copied when the campaign was written. A filter on
 * `categories` (names) or `category_ids` must see the categories as they are now: renamed, or
 * none once deleted. The distinct categories of the project's campaigns are read by id (at most
 * the project's categories: BatchGets of 100); without such a filter nothing is read.
 */
async function withCurrentCategoryOfEntries(
  deps: Deps,
  projectId: string,
  entries: CampaignListEntry[],
  query: ListCampaignsQuery,
): Promise<CampaignListEntry[]> {
  if (!query.filters?.categories && !query.filters?.category_ids) return entries;
  const current = await currentCategories(
    deps,
    projectId,
    entries.flatMap((e) => (e.categoryId ? [e.categoryId] : [])),
  );
  return entries.map((e) => {
    if (!e.categoryId) return e;
    const category = current.get(e.categoryId);
    return { ...e, categoryId: category ? category.id : null, categoryName: category ? category.name : null };
  });
}
