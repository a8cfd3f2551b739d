import { ExtraItemsConflictError, RETRY, retryOnConflict, type TransactItem } from '../db/transact.js';
import { ConflictRetryError, DuplicateError, InvalidPayloadError, NotFoundError, TooManyCategoriesError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { type Category, MAX_CATEGORIES_PER_PROJECT, plainCategory } from './category.js';
import * as repo from './category.repo.js';
import type { CategoryBody, ListCategoriesQuery } from './category.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;
type ReadDeps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A request's category: by name (`category`) or by id (`category_id`), never both. */
export interface CategoryRef {
  name?: string | null | undefined;
  id?: string | null | undefined;
}

/** The category a write will reference, and the items that create it when it is new (else none). */
export interface CategoryPlan {
  category: Category | null;
  items: TransactItem[];
}

/** Attempts when a new category's name is taken by a concurrent request between plan and write. */
const MAX_CATEGORY_ATTEMPTS = 3;

const duplicateName = (name: string) => new DuplicateError('category', `Duplicated category exists with name ${name}`, name);

/**
 * Plans a request's category. A name that does not exist yet becomes a new category (as a
 * free-form tag would), but only as items for the caller's own transaction: a request refused
 * later writes no category. An id must exist.
 * @throws InvalidPayloadError when both a name and an id are given; NotFoundError for an unknown id;
 *   TooManyCategoriesError when a new name would exceed the project's cap.
 */
export async function planCategory(deps: Deps, projectId: string, ref: CategoryRef): Promise<CategoryPlan> {
  if (ref.name && ref.id) throw new InvalidPayloadError('Pass either category or category_id, not both');
  if (ref.id) {
    const found = await repo.getCategory(deps, projectId, ref.id);
    if (!found) throw new NotFoundError('category', ref.id);
    return { category: found, items: [] };
  }
  if (!ref.name) return { category: null, items: [] };
  const existing = await byName(deps, projectId, ref.name);
  if (existing) return { category: existing, items: [] };
  if ((await repo.countCategories(deps, projectId)) >= MAX_CATEGORIES_PER_PROJECT) throw new TooManyCategoriesError(MAX_CATEGORIES_PER_PROJECT);
  const category: Category = { id: deps.ids.id('cat'), name: ref.name, hierarchy: 0, createdAt: deps.clock.now().toISOString(), updatedAt: null };
  return { category, items: repo.categoryPutItems(deps, projectId, category) };
}

/**
 * Runs a write that references a request's category, with the new category's items in the same
 * transaction (the write puts `plan.items` into it and throws ExtraItemsConflictError when their
 * condition fails). Concurrent first uses of one name agree on one category: the loser re-plans,
 * finds the winner's category and writes again (or finds the project full: 400).
 * @throws whatever planCategory or the write throws; ConflictRetryError after repeated lost races.
 */
export async function withCategory<T>(deps: Deps, projectId: string, ref: CategoryRef, write: (plan: CategoryPlan) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < MAX_CATEGORY_ATTEMPTS; attempt += 1) {
    const plan = await planCategory(deps, projectId, ref);
    try {
      return await write(plan);
    } catch (error) {
      if (!(error instanceof ExtraItemsConflictError) || plan.items.length === 0) throw error;
    }
  }
  throw new ConflictRetryError(`Too many concurrent first uses of category ${ref.name ?? ''}`);
}

/**
 * The category a name is reserved for. A name and its category are written and deleted together,
 * so a reservation whose category is missing was deleted (or renamed) between the two reads: read again.
 */
async function byName(deps: ReadDeps, projectId: string, name: string): Promise<Category | null> {
  for (let attempt = 0; attempt < MAX_CATEGORY_ATTEMPTS; attempt += 1) {
    const id = await repo.getCategoryIdByName(deps, projectId, name);
    if (!id) return null;
    const found = await repo.getCategory(deps, projectId, id);
    if (found) return found;
  }
  throw new ConflictRetryError(`Category ${name} keeps changing`);
}

/**
 * POST /v1/categories: a category with a name not yet taken in the project.
 * @throws DuplicateError (the name is taken, case-sensitive), TooManyCategoriesError, ConflictRetryError.
 */
export async function createCategory(deps: Deps, projectId: string, body: CategoryBody): Promise<Category> {
  const category: Category = { id: deps.ids.id('cat'), name: body.name, hierarchy: body.hierarchy, createdAt: deps.clock.now().toISOString(), updatedAt: null };
  return retryOnConflict(`Too many concurrent writes of categories of project ${projectId}`, async () => {
    const outcome = await repo.insertCategory(deps, projectId, category);
    if (outcome === 'name_taken') throw duplicateName(body.name);
    if (outcome === 'full') throw new TooManyCategoriesError(MAX_CATEGORIES_PER_PROJECT);
    return outcome === 'ok' ? category : RETRY;
  });
}

/** One page of GET /v1/categories, and the number of the project's listed categories. */
export interface CategoryPage {
  categories: Category[];
  total: number;
}

/**
 * GET /v1/categories: the project's listed categories, highest hierarchy first, `limit` a page
 * (page `page`); without `limit`, all of them (at most MAX_CATEGORIES_PER_PROJECT). Reads the
 * list up to the page's end only; `total` counts every listed category (the project's counter
 * when a page may hold fewer, else the categories read).
 */
export async function listCategories(deps: ReadDeps, projectId: string, q: ListCategoriesQuery = { page: 1 }): Promise<CategoryPage> {
  const size = q.limit ?? MAX_CATEGORIES_PER_PROJECT;
  const skip = (q.page - 1) * size;
  if (q.limit === undefined) {
    const all = q.page === 1 ? await repo.listCategories(deps, projectId) : [];
    return { categories: all, total: q.page === 1 ? all.length : await repo.countCategories(deps, projectId) };
  }
  const [read, total] = await Promise.all([repo.listCategories(deps, projectId, skip + size), repo.countCategories(deps, projectId)]);
  return { categories: read.slice(skip, skip + size), total };
}

/**
 * GET /v1/categories/{categoryId}.
 * @throws NotFoundError.
 */
export async function getCategory(deps: ReadDeps, projectId: string, categoryId: string): Promise<Category> {
  const found = await repo.getCategory(deps, projectId, categoryId);
  if (!found) throw new NotFoundError('category', categoryId);
  return found;
}

/**
 * PUT /v1/categories/{categoryId}: sets name and hierarchy and refreshes `updated_at`. A new name
 * must be free; the old one is free from then on. Campaigns and vouchers of the category show the
 * new name and hierarchy, since their replies read the category (withCurrentCategories).
 * @throws NotFoundError, DuplicateError (the new name is another category's), ConflictRetryError.
 */
export function updateCategory(deps: Deps, projectId: string, categoryId: string, body: CategoryBody): Promise<Category> {
  return retryOnConflict(`Too many concurrent writes of category ${categoryId}`, async () => {
    const read = await repo.getStoredCategory(deps, projectId, categoryId);
    if (!read) throw new NotFoundError('category', categoryId);
    const next: Category = { ...read, name: body.name, hierarchy: body.hierarchy, updatedAt: deps.clock.now().toISOString() };
    const outcome = await repo.replaceCategory(deps, projectId, read, next);
    if (outcome === 'name_taken') throw duplicateName(body.name);
    return outcome === 'ok' ? plainCategory(next) : RETRY;
  });
}

/**
 * DELETE /v1/categories/{categoryId}: deletes the category and frees its name. Campaigns and
 * vouchers that reference it keep its id, and their replies show no category from then on (a
 * later category of the same name is a new one, with a new id).
 * @throws NotFoundError (also to all but one of concurrent deletes), ConflictRetryError.
 */
export function deleteCategory(deps: ReadDeps, projectId: string, categoryId: string): Promise<void> {
  return retryOnConflict(`Too many concurrent writes of category ${categoryId}`, async () => {
    const read = await repo.getStoredCategory(deps, projectId, categoryId);
    if (!read) throw new NotFoundError('category', categoryId);
    const outcome = await repo.removeCategory(deps, projectId, read);
    return outcome === 'ok' ? undefined : RETRY;
  });
}

/** Ids per BatchGetItem. */
const BATCH = 100;

/**
 * The categories of `ids` as they are now (renamed, re-ranked), by id; deleted ones are absent.
 * One consistent BatchGet per 100 distinct ids.
 */
export async function currentCategories(deps: ReadDeps, projectId: string, ids: Iterable<string>): Promise<Map<string, Category>> {
  const distinct = [...new Set(ids)];
  const batches: string[][] = [];
  for (let i = 0; i < distinct.length; i += BATCH) batches.push(distinct.slice(i, i + BATCH));
  const found = (await Promise.all(batches.map((batch) => repo.getCategories(deps, projectId, batch)))).flat();
  return new Map(found.map((c) => [c.id, c]));
}

/**
 * `values` (campaigns, vouchers) with the category each copied when it was written replaced by
 * the category as it is now, or by null where the category was deleted. Campaigns and vouchers
 * keep only a copy, so this read is what makes a rename or a deletion show in their replies.
 * Nothing is read when no value has a category.
 */
export async function withCurrentCategories<T extends { category: Category | null }>(deps: ReadDeps, projectId: string, values: readonly T[]): Promise<T[]> {
  const ids = values.flatMap((v) => (v.category ? [v.category.id] : []));
  if (ids.length === 0) return [...values];
  const current = await currentCategories(deps, projectId, ids);
  return values.map((v) => (v.category ? { ...v, category: current.get(v.category.id) ?? null } : v));
}

/** One value's category as it is now (see withCurrentCategories). */
export async function withCurrentCategory<T extends { category: Category | null }>(deps: ReadDeps, projectId: string, value: T): Promise<T> {
  if (!value.category) return value;
  return { ...value, category: await repo.getCategory(deps, projectId, value.category.id) };
}
