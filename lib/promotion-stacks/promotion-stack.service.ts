import type { Campaign } from '../campaigns/campaign.js';
import { loadCampaign } from '../campaigns/campaign.service.js';
import type { Category } from '../categories/category.js';
import { getCategories, getCategory } from '../categories/category.repo.js';
import * as entities from '../db/entities.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { InvalidCampaignError, InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { StackWithCategory } from './promotion-stack.mapper.js';
import { MAX_PROMOTION_STACKS_PER_PROJECT, misnamedTier, type PromotionStack, sortStacks, withinDates } from './promotion-stack.js';
import * as repo from './promotion-stack.repo.js';
import type { CreatePromotionStackBody, ListAllPromotionStacksQuery, UpdatePromotionStackBody } from './promotion-stack.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids' | 'clock'>;

/** A PROMOTION campaign by id or name. @throws NotFoundError (campaign); InvalidCampaignError for another type. */
async function promotionOf(deps: Deps, projectId: string, campaignRef: string): Promise<Campaign> {
  const campaign = await loadCampaign(deps, projectId, campaignRef);
  if (campaign.campaignType !== 'PROMOTION') {
    throw new InvalidCampaignError(`Campaign ${campaignRef} is ${campaign.campaignType}: promotion stacks belong to PROMOTION campaigns`);
  }
  return campaign;
}

/** @throws NotFoundError (promotion_tier) for a tier the campaign lacks; InvalidPayloadError for a tier named twice. */
function checkTiers(campaign: Campaign, tierIds: readonly string[]): void {
  const wrong = misnamedTier(tierIds, new Set((campaign.promotionTiers ?? []).map((t) => t.id)));
  if (wrong?.why === 'missing')
    throw new NotFoundError('promotion_tier', wrong.id, `Cannot find promotion_tier with id ${wrong.id} in campaign ${campaign.id}`);
  if (wrong) throw new InvalidPayloadError(`Property .tiers.ids names ${wrong.id} twice: a stack applies each tier once`);
}

/** @throws NotFoundError (category) for an unknown category. */
async function categoryNamed(deps: Deps, projectId: string, categoryId: string | null): Promise<Category | null> {
  if (categoryId === null) return null;
  const category = await getCategory(deps, projectId, categoryId);
  if (!category) throw new NotFoundError('category', categoryId);
  return category;
}

/** The stack, which must belong to `campaign`. @throws NotFoundError (promotion_stack). */
async function stackIn(deps: Deps, projectId: string, campaign: Campaign, stackId: string): Promise<PromotionStack> {
  const stack = await repo.getStack(deps, projectId, stackId);
  if (!stack || stack.campaignId !== campaign.id) throw new NotFoundError('promotion_stack', stackId);
  return stack;
}

/** `read` over ≤ 100 ids at a time (a BatchGetItem's most), in parallel; nothing for no ids. */
async function inChunks<T>(ids: readonly string[], read: (some: string[]) => Promise<T[]>): Promise<T[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += 100) chunks.push(ids.slice(i, i + 100));
  return (await Promise.all(chunks.map(read))).flat();
}

/** The stacks with their categories as they are now (one BatchGetItem of the distinct ids). */
async function withCategories(deps: Deps, projectId: string, stacks: readonly PromotionStack[]): Promise<StackWithCategory[]> {
  const ids = [...new Set(stacks.flatMap((s) => (s.categoryId ? [s.categoryId] : [])))];
  const found = new Map((await inChunks(ids, (some) => getCategories(deps, projectId, some))).map((c) => [c.id, c]));
  return stacks.map((stack) => ({ stack, category: stack.categoryId ? (found.get(stack.categoryId) ?? null) : null }));
}

/**
 * POST /v1/promotions/{campaignId}/stacks: a stack of the campaign's tiers, in the order given.
 * @throws NotFoundError (campaign, promotion_tier, category); InvalidCampaignError (not a promotion);
 *   InvalidPayloadError (a tier named twice, MAX_PROMOTION_STACKS_PER_PROJECT reached).
 */
export async function createPromotionStack(deps: Deps, projectId: string, campaignRef: string, body: CreatePromotionStackBody): Promise<StackWithCategory> {
  const campaign = await promotionOf(deps, projectId, campaignRef);
  checkTiers(campaign, body.tiers.ids);
  const category = await categoryNamed(deps, projectId, body.category_id ?? null);
  const stack: PromotionStack = {
    id: deps.ids.id('stack'),
    campaignId: campaign.id,
    name: body.name,
    tierIds: body.tiers.ids,
    hierarchyMode: 'MANUAL',
    categoryId: category?.id ?? null,
    category,
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
    revision: 0,
  };
  await retryOnConflict(`Too many concurrent writes of promotion stacks of project ${projectId}`, async () => {
    const outcome = await repo.insertStack(deps, projectId, stack);
    if (outcome === 'full') {
      throw new InvalidPayloadError(`A project has at most ${MAX_PROMOTION_STACKS_PER_PROJECT} promotion stacks; delete one before creating another`);
    }
    return outcome === 'ok' ? undefined : RETRY;
  });
  return { stack, category };
}

/** GET /v1/promotions/{campaignId}/stacks/{stackId}. @throws NotFoundError (campaign, promotion_stack); InvalidCampaignError. */
export async function getPromotionStack(deps: Deps, projectId: string, campaignRef: string, stackId: string): Promise<StackWithCategory> {
  const campaign = await promotionOf(deps, projectId, campaignRef);
  const [withCategory] = await withCategories(deps, projectId, [await stackIn(deps, projectId, campaign, stackId)]);
  if (!withCategory) throw new NotFoundError('promotion_stack', stackId);
  return withCategory;
}

/** GET /v1/promotions/{campaignId}/stacks: the campaign's stacks, oldest first. @throws NotFoundError (campaign); InvalidCampaignError. */
export async function listPromotionStacksInCampaign(deps: Deps, projectId: string, campaignRef: string): Promise<StackWithCategory[]> {
  const campaign = await promotionOf(deps, projectId, campaignRef);
  const stacks = (await repo.allStacks(deps, projectId)).filter((s) => s.campaignId === campaign.id);
  return withCategories(deps, projectId, sortStacks(stacks, 'created_at'));
}

/**
 * GET /v1/promotions/stacks: a page of the project's stacks whose campaign still exists, filtered by
 * the date bounds and sorted by `order`; `total` counts every match.
 */
export async function listAllPromotionStacks(
  deps: Deps,
  projectId: string,
  query: ListAllPromotionStacksQuery,
): Promise<{ stacks: StackWithCategory[]; total: number }> {
  const created = { before: query['created_at[before]'], after: query['created_at[after]'] };
  const updated = { before: query['updated_at[before]'], after: query['updated_at[after]'] };
  const stacks = (await repo.allStacks(deps, projectId)).filter((s) => withinDates(s, created, updated));
  // A deleted campaign's stacks stay in the partition (its tiers are gone): they are not listed.
  const campaignIds = [...new Set(stacks.map((s) => s.campaignId))];
  const live = new Set<string>();
  const campaigns = await inChunks(campaignIds, (ids) =>
    entities.campaign.getMany(
      deps,
      ids.map((id) => entities.campaign.key(projectId, id)),
      'Too many concurrent reads of campaigns',
    ),
  );
  for (const c of campaigns) live.add(c.id);
  const matching = sortStacks(
    stacks.filter((s) => live.has(s.campaignId)),
    query.order,
  );
  const page = matching.slice((query.page - 1) * query.limit, query.page * query.limit);
  return { stacks: await withCategories(deps, projectId, page), total: matching.length };
}

/**
 * PUT /v1/promotions/{campaignId}/stacks/{stackId}: the fields sent replace the stack's, while the
 * stack is as read (a lost race reads it again).
 * @throws NotFoundError (campaign, promotion_stack, promotion_tier, category); InvalidCampaignError; InvalidPayloadError.
 */
export async function updatePromotionStack(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  stackId: string,
  body: UpdatePromotionStackBody,
): Promise<StackWithCategory> {
  return retryOnConflict(`Too many concurrent writes of promotion stack ${stackId}`, async () => {
    const campaign = await promotionOf(deps, projectId, campaignRef);
    const read = await stackIn(deps, projectId, campaign, stackId);
    if (body.tiers) checkTiers(campaign, body.tiers.ids);
    const categoryId = body.category_id === undefined ? read.categoryId : body.category_id;
    // A category sent is checked; one kept as it was may have gone since (the reply then shows none).
    // Read before the write (not after it, for the reply) so the stack's copy is the category as it is now.
    const category =
      body.category_id !== undefined ? await categoryNamed(deps, projectId, categoryId) : categoryId ? await getCategory(deps, projectId, categoryId) : null;
    const next: PromotionStack = {
      ...read,
      name: body.name ?? read.name,
      tierIds: body.tiers?.ids ?? read.tierIds,
      categoryId,
      category,
      updatedAt: deps.clock.now().toISOString(),
      revision: read.revision + 1,
    };
    const outcome = await repo.replaceStack(deps, projectId, read, next);
    return outcome === 'ok' ? { stack: next, category } : RETRY;
  });
}

/** DELETE /v1/promotions/{campaignId}/stacks/{stackId}. @throws NotFoundError (campaign, promotion_stack); InvalidCampaignError. */
export async function deletePromotionStack(deps: Deps, projectId: string, campaignRef: string, stackId: string): Promise<void> {
  const campaign = await promotionOf(deps, projectId, campaignRef);
  await stackIn(deps, projectId, campaign, stackId);
  await retryOnConflict(`Too many concurrent writes of promotion stacks of project ${projectId}`, async () => {
    const outcome = await repo.removeStack(deps, projectId, stackId);
    if (outcome === false) throw new NotFoundError('promotion_stack', stackId);
    return outcome === true ? undefined : RETRY;
  });
}
