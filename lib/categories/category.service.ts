import { ExtraItemsConflictError, type TransactItem } from '../db/transact.js';
import { ConflictRetryError, InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { Category } from './category.js';
import * as repo from './category.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

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

/**
 * Plans a request's category. A name that does not exist yet becomes a new category (as a
 * free-form tag would), but only as items for the caller's own transaction: a request refused
 * later writes no category. An id must exist.
 * @throws InvalidPayloadError when both a name and an id are given; NotFoundError for an unknown id.
 */
export async function planCategory(deps: Deps, projectId: string, ref: CategoryRef): Promise<CategoryPlan> {
  if (ref.name && ref.id) throw new InvalidPayloadError('Pass either category or category_id, not both');
  if (ref.id) {
    const found = await repo.getCategory(deps, projectId, ref.id);
    if (!found) throw new NotFoundError('category', ref.id);
    return { category: found, items: [] };
  }
  if (!ref.name) return { category: null, items: [] };
  const existing = await repo.getCategoryIdByName(deps, projectId, ref.name);
  if (existing) return { category: await byId(deps, projectId, existing), items: [] };
  const category: Category = { id: deps.ids.id('cat'), name: ref.name, hierarchy: 0, createdAt: deps.clock.now().toISOString(), updatedAt: null };
  return { category, items: repo.categoryPutItems(deps, projectId, category) };
}

/**
 * Runs a write that references a request's category, with the new category's items in the same
 * transaction (the write puts `plan.items` into it and throws ExtraItemsConflictError when their
 * condition fails). Concurrent first uses of one name agree on one category: the loser re-plans,
 * finds the winner's category and writes again.
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

async function byId(deps: Deps, projectId: string, id: string): Promise<Category> {
  const found = await repo.getCategory(deps, projectId, id);
  if (!found) throw new Error(`Category ${id} is reserved by name but missing`);
  return found;
}
