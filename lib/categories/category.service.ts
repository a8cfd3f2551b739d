import { InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { Category } from './category.js';
import * as repo from './category.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** A request's category: by name (`category`) or by id (`category_id`), never both. */
export interface CategoryRef {
  name?: string | null | undefined;
  id?: string | null | undefined;
}

/**
 * Resolves a request's category. A name that does not exist yet becomes a new category (as a
 * free-form tag would); an id must exist. Concurrent first uses of one name agree on one category.
 * @throws InvalidPayloadError when both a name and an id are given; NotFoundError for an unknown id.
 */
export async function resolveCategory(deps: Deps, projectId: string, ref: CategoryRef): Promise<Category | null> {
  if (ref.name && ref.id) throw new InvalidPayloadError('Pass either category or category_id, not both');
  if (ref.id) {
    const found = await repo.getCategory(deps, projectId, ref.id);
    if (!found) throw new NotFoundError('category', ref.id);
    return found;
  }
  if (!ref.name) return null;
  const existing = await repo.getCategoryIdByName(deps, projectId, ref.name);
  if (existing) return byId(deps, projectId, existing);
  const category: Category = { id: deps.ids.id('cat'), name: ref.name, hierarchy: 0, createdAt: deps.clock.now().toISOString(), updatedAt: null };
  if (await repo.insertCategory(deps, projectId, category)) return category;
  const winner = await repo.getCategoryIdByName(deps, projectId, ref.name);
  if (!winner) throw new Error(`Category name ${ref.name} was taken but has no id`);
  return byId(deps, projectId, winner);
}

async function byId(deps: Deps, projectId: string, id: string): Promise<Category> {
  const found = await repo.getCategory(deps, projectId, id);
  if (!found) throw new Error(`Category ${id} is reserved by name but missing`);
  return found;
}
