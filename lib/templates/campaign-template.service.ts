import { type Campaign, MAX_PROMOTION_TIERS, type PromotionTier } from '../campaigns/campaign.js';
import { getCampaign as readCampaign, getCampaignIdByPromotionTier } from '../campaigns/campaign.repo.js';
import { createCampaign, loadCampaign } from '../campaigns/campaign.service.js';
import type { CreateCampaignBody } from '../campaigns/campaign.schema.js';
import { camelize, snakeize } from '../case.js';
import { appendPromotionTier } from '../campaigns/promotion-tier.repo.js';
import { getCategory } from '../categories/category.repo.js';
import type { JobQueue } from '../jobs/job.js';
import {
  ConflictRetryError,
  DuplicateError,
  InvalidCampaignError,
  InvalidPayloadError,
  InvalidQueryParamsError,
  NotFoundError,
  UnsupportedTemplateTypeError,
} from '../errors.js';
import type { Runtime } from '../runtime.js';
import { resolveCodeConfig } from '../vouchers/code-generator.js';
import type { CampaignSnapshot, CampaignTemplate, TemplateCampaignType } from './campaign-template.js';
import type {
  AddTierFromTemplateBody,
  CreateCampaignFromTemplateBody,
  CreateCampaignTemplateBody,
  ListCampaignTemplatesQuery,
  UpdateCampaignTemplateBody,
} from './campaign-template.schema.js';
import * as repo from './campaign-template.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** The reference's wording for a template name taken in the project. */
const duplicateName = (name: string) => new DuplicateError('campaign_template', `Duplicated campaign_template exists with name ${name}`, name);

function campaignSnapshot(c: Campaign): CampaignSnapshot {
  if ((c.campaignType !== 'DISCOUNT_COUPONS' && c.campaignType !== 'GIFT_VOUCHERS') || !c.voucher) {
    throw new UnsupportedTemplateTypeError(c.campaignType);
  }
  return {
    campaignType: c.campaignType,
    type: c.type,
    voucher: c.voucher,
    referralProgram: c.referralProgram,
    autoJoin: c.autoJoin,
    joinOnce: c.joinOnce,
    useVoucherMetadataSchema: c.useVoucherMetadataSchema,
    activityDurationAfterPublishing: c.activityDurationAfterPublishing,
    active: c.active,
    metadata: c.metadata,
    category: c.category,
    startDate: c.startDate,
    expirationDate: c.expirationDate,
    validityTimeframe: c.validityTimeframe,
    validityDayOfWeek: c.validityDayOfWeek,
    validityHours: c.validityHours,
  };
}

/** A promotion tier as a discount-coupon configuration: its discount becomes the voucher template's. */
async function tierSnapshot(deps: Deps, projectId: string, tierId: string): Promise<CampaignSnapshot> {
  const campaignId = await getCampaignIdByPromotionTier(deps, projectId, tierId);
  const campaign = campaignId ? await readCampaign(deps, projectId, campaignId) : null;
  const tier = campaign?.promotionTiers?.find((t) => t.id === tierId);
  if (!campaign || !tier) throw new NotFoundError('promotion_tier', tierId);
  return {
    campaignType: 'DISCOUNT_COUPONS',
    type: 'AUTO_UPDATE',
    voucher: {
      type: 'DISCOUNT_VOUCHER',
      discount: tier.discount,
      gift: null,
      loyaltyCard: null,
      redemptionQuantity: null,
      codeConfig: resolveCodeConfig(undefined),
      isReferralCode: false,
    },
    referralProgram: null,
    autoJoin: false,
    joinOnce: false,
    useVoucherMetadataSchema: false,
    activityDurationAfterPublishing: null,
    active: tier.active,
    metadata: tier.metadata,
    category: null,
    startDate: tier.startDate,
    expirationDate: tier.expirationDate,
    validityTimeframe: tier.validityTimeframe,
    validityDayOfWeek: tier.validityDayOfWeek,
    validityHours: tier.validityHours,
  };
}

/**
 * Makes a campaign template from a discount or gift campaign, or from a promotion tier, keeping a
 * snapshot of the source's configuration (later changes to the source do not affect it).
 * @throws InvalidPayloadError (both or neither source), NotFoundError (campaign, promotion_tier),
 *   UnsupportedTemplateTypeError, DuplicateError (name taken in the project).
 */
export async function createCampaignTemplate(deps: Deps, projectId: string, body: CreateCampaignTemplateBody): Promise<CampaignTemplate> {
  const campaignId = body.campaign_id ?? null;
  const tierId = body.promotion_tier_id ?? null;
  if (campaignId !== null && tierId !== null) {
    throw new InvalidPayloadError('campaign_id and promotion_tier_id must not be sent together: pass one of them');
  }
  if (campaignId === null && tierId === null) {
    throw new InvalidPayloadError('Either campaign_id or promotion_tier_id is required');
  }
  const snapshot =
    campaignId !== null ? campaignSnapshot(await loadCampaign(deps, projectId, campaignId)) : await tierSnapshot(deps, projectId, tierId as string);
  const template: CampaignTemplate = {
    id: deps.ids.id('camp_tpl'),
    projectId,
    name: body.name,
    description: body.description ?? null,
    campaignType: snapshot.campaignType,
    source: campaignId !== null ? { kind: 'campaign', id: campaignId } : { kind: 'promotion_tier', id: tierId as string },
    snapshot,
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
  };
  if (!(await repo.insertCampaignTemplate(deps, template))) {
    throw duplicateName(template.name);
  }
  return template;
}

/**
 * A template of the project by id.
 * @throws NotFoundError (campaign_template).
 */
export async function getCampaignTemplate(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, templateId: string): Promise<CampaignTemplate> {
  const found = await repo.getCampaignTemplate(deps, projectId, templateId);
  if (!found) throw new NotFoundError('campaign_template', templateId);
  return found;
}

const TEMPLATE_TYPES: readonly TemplateCampaignType[] = ['DISCOUNT_COUPONS', 'GIFT_VOUCHERS'];

/** The campaign types a `campaign_type` filter lets through (its conditions all hold). */
function typesOf(filter: NonNullable<ListCampaignTemplatesQuery['filters']>['campaign_type']): TemplateCampaignType[] {
  const c = filter?.conditions ?? {};
  return TEMPLATE_TYPES.filter(
    (t) =>
      (c.$is === undefined || c.$is === t) &&
      (c.$is_not === undefined || c.$is_not !== t) &&
      (c.$in === undefined || c.$in.includes(t)) &&
      (c.$not_in === undefined || !c.$not_in.includes(t)) &&
      c.$is_unknown === undefined &&
      (c.$starts_with === undefined || t.startsWith(c.$starts_with)) &&
      (c.$ends_with === undefined || t.endsWith(c.$ends_with)),
  );
}

export interface CampaignTemplatePage {
  templates: CampaignTemplate[];
  hasMore: boolean;
  /** Every template of the project, whatever the filter (only when asked for). */
  total: number | null;
}

/**
 * GET /v1/templates/campaigns: one page in creation order (`id`) or newest first (`-id`), after the
 * template `starting_after_id` names. A page is one Query of `limit + 1` index entries (GSI1, or
 * GSI2 for one campaign type); `total` is the project's template counter (one GetItem).
 * @throws InvalidQueryParamsError when `starting_after_id` names no template of the project.
 */
export async function listCampaignTemplates(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
  projectId: string,
  query: ListCampaignTemplatesQuery,
): Promise<CampaignTemplatePage> {
  const types = typesOf(query.filters?.campaign_type);
  const [after, total] = await Promise.all([
    query.starting_after_id !== undefined ? repo.getCampaignTemplate(deps, projectId, query.starting_after_id) : Promise.resolve(null),
    query.include_total ? repo.countCampaignTemplates(deps, projectId) : Promise.resolve(null),
  ]);
  if (query.starting_after_id !== undefined && !after) {
    throw new InvalidQueryParamsError(`Property .starting_after_id names no campaign template: ${query.starting_after_id}`);
  }
  if (types.length === 0) return { templates: [], hasMore: false, total };
  const page = await repo.listCampaignTemplatePage(deps, projectId, {
    limit: query.limit,
    ascending: query.order === 'id',
    campaignType: types.length === 1 ? (types[0] as TemplateCampaignType) : null,
    after,
  });
  return { ...page, total };
}

/** Rounds a template read may lose to a concurrent writer before the update gives up. */
const MAX_REREADS = 10;

/**
 * PUT /v1/templates/campaigns/{id}: a new name (unique in the project) and/or description (null
 * clears it); `updated_at` is set. The configuration snapshot never changes.
 * @throws NotFoundError (campaign_template), DuplicateError (the name is another template's).
 */
export async function updateCampaignTemplate(
  deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock'>,
  projectId: string,
  templateId: string,
  body: UpdateCampaignTemplateBody,
): Promise<CampaignTemplate> {
  for (let round = 0; round < MAX_REREADS; round++) {
    const read = await getCampaignTemplate(deps, projectId, templateId);
    const next: CampaignTemplate = {
      ...read,
      name: body.name ?? read.name,
      description: body.description === undefined ? read.description : body.description,
      updatedAt: deps.clock.now().toISOString(),
    };
    const outcome = await repo.replaceCampaignTemplate(deps, read, next);
    if (outcome === 'ok') return next;
    if (outcome === 'name_taken') throw duplicateName(next.name);
  }
  throw new ConflictRetryError(`Too many concurrent writes of template ${templateId}`);
}

/**
 * DELETE /v1/templates/campaigns/{id}: removes the template for good and frees its name.
 * Campaigns made from it stay as they are.
 * @throws NotFoundError (campaign_template), also to the loser of two concurrent deletes.
 */
export async function deleteCampaignTemplate(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, templateId: string): Promise<void> {
  for (let round = 0; round < MAX_REREADS; round++) {
    const read = await getCampaignTemplate(deps, projectId, templateId);
    const outcome = await repo.removeCampaignTemplate(deps, read);
    if (outcome === 'ok') return;
    if (outcome === 'gone') throw new NotFoundError('campaign_template', templateId);
  }
  throw new ConflictRetryError(`Too many concurrent writes of template ${templateId}`);
}

/**
 * The template's category for a campaign made from it: referenced by id, so a renamed category is
 * the campaign's under its new name; a category deleted since the template was made means none
 * (docs/decisions.md "Campaigns from templates").
 */
async function templateCategoryId(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, snap: CampaignSnapshot): Promise<string | null> {
  if (!snap.category) return null;
  return (await getCategory(deps, projectId, snap.category.id)) ? snap.category.id : null;
}

/** Pick `key` from the request when it was sent (null included), else the template's value. */
const pick = <B extends object, K extends keyof B, T>(body: B, key: K, fallback: T): NonNullable<B[K]> | T | null =>
  key in body && body[key] !== undefined ? (body[key] ?? null) : fallback;

/**
 * The create-campaign body that the template and the request's overrides make: the template's
 * configuration, each field the request sends replacing the template's.
 */
export function campaignBodyFromTemplate(snap: CampaignSnapshot, body: CreateCampaignFromTemplateBody, categoryId: string | null): CreateCampaignBody {
  const v = snap.voucher;
  const overrideCode = body.voucher?.code_config;
  const code = resolveCodeConfig(
    overrideCode
      ? {
          length: overrideCode.length,
          charset: overrideCode.charset,
          prefix: overrideCode.prefix,
          postfix: overrideCode.postfix,
          pattern: overrideCode.pattern,
          initialCount: overrideCode.initial_count,
        }
      : undefined,
    v.codeConfig,
  );
  const codeConfig = {
    charset: code.charset,
    pattern: code.pattern,
    ...(code.prefix !== null ? { prefix: code.prefix } : {}),
    ...(code.postfix !== null ? { postfix: code.postfix } : {}),
    ...(code.initialCount !== null ? { initial_count: code.initialCount } : {}),
  };
  const quantity = body.voucher?.redemption && 'quantity' in body.voucher.redemption ? (body.voucher.redemption.quantity ?? null) : v.redemptionQuantity;
  const common = {
    name: body.name,
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.access_settings !== undefined ? { access_settings: body.access_settings } : {}),
    type: body.type ?? snap.type,
    join_once: body.join_once ?? snap.joinOnce,
    auto_join: body.auto_join ?? snap.autoJoin,
    use_voucher_metadata_schema: body.use_voucher_metadata_schema ?? snap.useVoucherMetadataSchema,
    ...(body.vouchers_count !== undefined ? { vouchers_count: body.vouchers_count } : {}),
    start_date: pick(body, 'start_date', snap.startDate),
    expiration_date: pick(body, 'expiration_date', snap.expirationDate),
    validity_timeframe: pick(body, 'validity_timeframe', snap.validityTimeframe),
    validity_day_of_week: pick(body, 'validity_day_of_week', snap.validityDayOfWeek),
    validity_hours: pick(body, 'validity_hours', snap.validityHours ? snakeize(snap.validityHours) : null),
    activity_duration_after_publishing: pick(body, 'activity_duration_after_publishing', snap.activityDurationAfterPublishing),
    ...(body.category_id !== undefined || body.category !== undefined
      ? { category_id: body.category_id ?? null, category: body.category ?? null }
      : { category_id: categoryId }),
    metadata: body.metadata ?? snap.metadata,
    active: body.active ?? snap.active,
  };
  const redemption = { quantity };
  if (snap.campaignType === 'GIFT_VOUCHERS') {
    if (!v.gift) throw new Error('A GIFT_VOUCHERS template without a gift');
    return { ...common, campaign_type: 'GIFT_VOUCHERS', voucher: { type: 'GIFT_VOUCHER', gift: snakeize(v.gift), code_config: codeConfig, redemption } };
  }
  if (!v.discount) throw new Error('A DISCOUNT_COUPONS template without a discount');
  return {
    ...common,
    campaign_type: 'DISCOUNT_COUPONS',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: snakeize(v.discount), code_config: codeConfig, redemption },
  };
}

/**
 * POST /v1/templates/campaigns/{id}/campaign-setup: a campaign with the template's configuration
 * and the request's overrides, made by createCampaign itself, so name uniqueness, the campaign
 * counter and list entry, the category, and `vouchers_count` generation (in the request or as an
 * async action) are those of POST /v1/campaigns. No other resources are made (`created_resources`
 * is empty: templates here hold no validation rules).
 * @throws NotFoundError (campaign_template; a category_id of the request), and what createCampaign throws
 *   (DuplicateError for a taken name, InvalidPayloadError, CodeSpaceExhaustedError, …).
 */
export async function createCampaignFromTemplate(
  deps: Deps & { jobs: JobQueue },
  projectId: string,
  templateId: string,
  body: CreateCampaignFromTemplateBody,
  requestId: string,
): Promise<Campaign> {
  const template = await getCampaignTemplate(deps, projectId, templateId);
  const categoryId = await templateCategoryId(deps, projectId, template.snapshot);
  return createCampaign(deps, projectId, campaignBodyFromTemplate(template.snapshot, body, categoryId), requestId);
}

/**
 * POST /v1/templates/campaigns/{id}/tier-setup: adds a promotion tier to a PROMOTION campaign,
 * made from a DISCOUNT_COUPONS template: the template's discount becomes the tier's, its validity,
 * `active` and metadata the tier's unless the request sends them. Without `hierarchy` the tier
 * comes after the campaign's others. The tier is appended to the campaign item with its pointer in
 * one transaction that holds only on the tiers as read (re-read and retried when it loses).
 * @throws NotFoundError (campaign_template, campaign), InvalidCampaignError (not a PROMOTION; at
 *   MAX_PROMOTION_TIERS), InvalidPayloadError (a GIFT_VOUCHERS template: no discount for a tier).
 */
export async function addTierFromTemplate(
  deps: Deps,
  projectId: string,
  templateId: string,
  body: AddTierFromTemplateBody,
): Promise<{ campaign: Campaign; tier: PromotionTier }> {
  const template = await getCampaignTemplate(deps, projectId, templateId);
  const snap = template.snapshot;
  const discount = snap.voucher.discount;
  if (snap.campaignType !== 'DISCOUNT_COUPONS' || !discount) {
    throw new InvalidPayloadError(`Template ${templateId} is ${snap.campaignType}: a promotion tier takes its discount from a DISCOUNT_COUPONS template`);
  }
  for (let round = 0; round < MAX_REREADS; round++) {
    const campaign = await loadCampaign(deps, projectId, body.campaign_id);
    if (campaign.campaignType !== 'PROMOTION') {
      throw new InvalidCampaignError(`Campaign ${body.campaign_id} is ${campaign.campaignType}: promotion tiers are added to PROMOTION campaigns`);
    }
    const tiers = campaign.promotionTiers ?? [];
    if (tiers.length >= MAX_PROMOTION_TIERS) throw new InvalidCampaignError(`A promotion has at most ${MAX_PROMOTION_TIERS} tiers`);
    const startDate = pick(body, 'start_date', snap.startDate);
    const expirationDate = pick(body, 'expiration_date', snap.expirationDate);
    if (startDate && expirationDate && expirationDate < startDate) throw new InvalidPayloadError('Property .expiration_date must not be before start_date');
    const validityTimeframe = pick(body, 'validity_timeframe', snap.validityTimeframe);
    if (validityTimeframe && !startDate) throw new InvalidPayloadError('Property .start_date is required when validity_timeframe is given');
    const hours = pick(body, 'validity_hours', null);
    const tier: PromotionTier = {
      id: deps.ids.id('promo'),
      name: body.name,
      banner: body.banner ?? null,
      discount,
      metadata: body.metadata ?? snap.metadata,
      active: body.active ?? snap.active,
      hierarchy: body.hierarchy ?? tiers.reduce((max, t) => Math.max(max, t.hierarchy), 0) + 1,
      createdAt: deps.clock.now().toISOString(),
      updatedAt: null,
      startDate,
      expirationDate,
      validityTimeframe,
      validityDayOfWeek: pick(body, 'validity_day_of_week', snap.validityDayOfWeek),
      validityHours: body.validity_hours !== undefined ? (hours ? camelize(hours) : null) : snap.validityHours,
    };
    if ((await appendPromotionTier(deps, campaign, tier)) === 'ok') {
      return { campaign: { ...campaign, promotionTiers: [...tiers, tier] }, tier };
    }
  }
  throw new ConflictRetryError(`Too many concurrent writes: tiers of campaign ${body.campaign_id}`);
}
