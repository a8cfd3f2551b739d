import { category as categoryEntity, categoryCounter, categoryName } from '../db/entities.js';
import type { Item } from '../db/entity.js';
import { transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { type Category, MAX_CATEGORIES_PER_PROJECT, plainCategory, type StoredCategory } from './category.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

export function getCategory(deps: Deps, projectId: string, categoryId: string): Promise<Category | null> {
  return getStoredCategory(deps, projectId, categoryId).then((c) => (c ? plainCategory(c) : null));
}

/** The category's item with its revision and list state, read consistently; null if none. */
export function getStoredCategory(deps: Deps, projectId: string, categoryId: string): Promise<StoredCategory | null> {
  return categoryEntity.get(deps, categoryEntity.key(projectId, categoryId));
}

/** The categories of `ids` that exist (≤ 100 ids; consistent), in no particular order. */
export async function getCategories(deps: Deps, projectId: string, ids: readonly string[]): Promise<Category[]> {
  const keys = ids.map((id) => categoryEntity.key(projectId, id));
  return (await categoryEntity.getMany(deps, keys, `Too many concurrent reads of categories of project ${projectId}`)).map(plainCategory);
}

/** The id reserved for a name, read consistently (it may have been written a moment ago). */
export async function getCategoryIdByName(deps: Deps, projectId: string, name: string): Promise<string | null> {
  return (await categoryName.get(deps, categoryName.key(projectId, name)))?.categoryId ?? null;
}

/** How many listed categories the project has (0 before its first). */
export async function countCategories(deps: Deps, projectId: string): Promise<number> {
  return (await categoryCounter.get(deps, categoryCounter.key(projectId)))?.count ?? 0;
}

/**
 * The project's listed categories, highest hierarchy first, newest first among equals: one Query
 * of GSI1 (pages of at most 100), read no further than `want` items (at most
 * MAX_CATEGORIES_PER_PROJECT small items exist). GSI1 is eventually consistent, so a category made
 * a moment ago may be missing.
 */
export async function listCategories(deps: Deps, projectId: string, want = MAX_CATEGORIES_PER_PROJECT): Promise<Category[]> {
  const out: Category[] = [];
  for await (const page of categoryEntity.queryPages(deps, { index: [projectId] }, { ascending: false, pageSize: Math.min(100, want) })) {
    out.push(...page.map(plainCategory));
    if (out.length >= want) break;
  }
  return out.slice(0, want);
}

/**
 * Adds `n` to the project's category counter. Raising it holds only below the cap, unless
 * `uncapped` (a category that exists already joins the list).
 */
function countItem(deps: Pick<Runtime, 'tableName'>, projectId: string, n: number, uncapped = false): TransactItem {
  const capped = n > 0 && !uncapped;
  return {
    Update: {
      TableName: deps.tableName,
      Key: categoryCounter.key(projectId),
      UpdateExpression: 'SET entity = :entity, v = :v ADD #count :n',
      ...(capped ? { ConditionExpression: 'attribute_not_exists(#count) OR #count < :cap' } : {}),
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: {
        ':entity': categoryCounter.name,
        ':v': categoryCounter.version,
        ':n': n,
        ...(capped ? { ':cap': MAX_CATEGORIES_PER_PROJECT } : {}),
      },
    },
  };
}

/** The item of a category as written now: listed, with the revision given. */
const itemOf = (projectId: string, category: Category, revision: number): Item =>
  categoryEntity.toItem({ ...plainCategory(category), revision, listed: true }, projectId);

/** A Put of the category's item that holds only while the stored item is still at `read`'s revision. */
function putIfUnchanged(deps: Pick<Runtime, 'tableName'>, projectId: string, category: Category, read: StoredCategory): TransactItem {
  return {
    Put: {
      TableName: deps.tableName,
      Item: itemOf(projectId, category, read.revision + 1),
      // Items from before `revision` was written lack it: their revision reads as 0.
      ConditionExpression: read.revision === 0 ? 'attribute_exists(PK) AND (attribute_not_exists(revision) OR revision = :r)' : 'revision = :r',
      ExpressionAttributeValues: { ':r': read.revision },
    },
  };
}

/**
 * The writes of a new category (its name reservation, the category, +1 on the project's counter),
 * for a transaction of the caller's. Index 0 fails when the name is taken meanwhile, index 2 when
 * the project has MAX_CATEGORIES_PER_PROJECT categories.
 */
export function categoryPutItems(deps: Pick<Runtime, 'tableName'>, projectId: string, category: Category): TransactItem[] {
  return [
    categoryName.putIfAbsent(deps, { categoryId: category.id }, projectId, category.name),
    { Put: { TableName: deps.tableName, Item: itemOf(projectId, category, 0), ConditionExpression: 'attribute_not_exists(PK)' } },
    countItem(deps, projectId, 1),
  ];
}

/** What a category write came to: written; the name is taken; the project is full; the category changed or went (re-read); a lost race (retry). */
export type CategoryWriteOutcome = 'ok' | 'name_taken' | 'full' | 'changed' | 'conflict';

/** Writes a new category with its name reservation and counts it, in one transaction. */
export async function insertCategory(deps: Deps, projectId: string, category: Category): Promise<CategoryWriteOutcome> {
  const outcome = await transact(deps, categoryPutItems(deps, projectId, category));
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (outcome.failed.includes(0)) return 'name_taken';
  if (outcome.failed.includes(2)) return 'full';
  throw new Error(`Category ${category.id} could not be written: its id is taken`);
}

/**
 * Replaces the category `read` with `next` (same id), if it is still as read. A new name moves the
 * reservation in the same transaction: the old one is deleted (it must still name this category)
 * and the new one put only if the name is free. A category from before the list joins it and the
 * counter (not capped: it exists already).
 */
export async function replaceCategory(deps: Deps, projectId: string, read: StoredCategory, next: Category): Promise<CategoryWriteOutcome> {
  const items: TransactItem[] = [putIfUnchanged(deps, projectId, next, read)];
  const renamed = next.name !== read.name;
  if (renamed) {
    items.push(categoryName.putIfAbsent(deps, { categoryId: read.id }, projectId, next.name), releaseName(deps, projectId, read));
  }
  if (!read.listed) items.push(countItem(deps, projectId, 1, true));
  const outcome = await transact(deps, items);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (outcome.failed.includes(0)) return 'changed';
  if (renamed && outcome.failed.includes(1)) return 'name_taken';
  throw new Error(`Category ${read.id}: its name reservation ${JSON.stringify(read.name)} names another category`);
}

/** Deletes the category `read` (if it is still as read), frees its name and uncounts it, in one transaction. */
export async function removeCategory(deps: Deps, projectId: string, read: StoredCategory): Promise<CategoryWriteOutcome> {
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: deps.tableName,
        Key: categoryEntity.key(projectId, read.id),
        ConditionExpression: read.revision === 0 ? 'attribute_exists(PK) AND (attribute_not_exists(revision) OR revision = :r)' : 'revision = :r',
        ExpressionAttributeValues: { ':r': read.revision },
      },
    },
    releaseName(deps, projectId, read),
  ];
  if (read.listed) items.push(countItem(deps, projectId, -1));
  const outcome = await transact(deps, items);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (outcome.failed.includes(0)) return 'changed';
  throw new Error(`Category ${read.id}: its name reservation ${JSON.stringify(read.name)} names another category`);
}

/** Deletes the reservation of the category's name, which must still name it. */
function releaseName(deps: Pick<Runtime, 'tableName'>, projectId: string, c: StoredCategory): TransactItem {
  return {
    Delete: {
      TableName: deps.tableName,
      Key: categoryName.key(projectId, c.name),
      ConditionExpression: 'categoryId = :id',
      ExpressionAttributeValues: { ':id': c.id },
    },
  };
}
