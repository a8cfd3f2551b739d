import { category as categoryEntity, categoryName } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Category } from './category.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

export function getCategory(deps: Deps, projectId: string, categoryId: string): Promise<Category | null> {
  return categoryEntity.get(deps, categoryEntity.key(projectId, categoryId));
}

/** The id reserved for a name, read consistently (it may have been written a moment ago). */
export async function getCategoryIdByName(deps: Deps, projectId: string, name: string): Promise<string | null> {
  return (await categoryName.get(deps, categoryName.key(projectId, name)))?.categoryId ?? null;
}

/**
 * The two puts of a new category (its name reservation and the category), for a transaction of
 * the caller's: each holds only if its key is free, so a name taken meanwhile fails that write.
 */
export function categoryPutItems(deps: Pick<Runtime, 'tableName'>, projectId: string, category: Category): TransactItem[] {
  return [categoryName.putIfAbsent(deps, { categoryId: category.id }, projectId, category.name), categoryEntity.putIfAbsent(deps, category, projectId)];
}
