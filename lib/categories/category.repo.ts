import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Category } from './category.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const ENTITY = 'category';
const SCHEMA_VERSION = 1;

const toDomain = (item: Record<string, unknown>): Category => {
  const i = item as unknown as Category;
  return { id: i.id, name: i.name, hierarchy: i.hierarchy, createdAt: i.createdAt, updatedAt: i.updatedAt ?? null };
};

export async function getCategory(deps: Deps, projectId: string, categoryId: string): Promise<Category | null> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.tableName, Key: keys.category(projectId, categoryId), ConsistentRead: true }));
  return res.Item ? toDomain(res.Item) : null;
}

/** The id reserved for a name, read consistently (it may have been written a moment ago). */
export async function getCategoryIdByName(deps: Deps, projectId: string, name: string): Promise<string | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.categoryName(projectId, name), ConsistentRead: true }),
  );
  return res.Item ? (res.Item.categoryId as string) : null;
}

/**
 * The two puts of a new category (its name reservation and the category), for a transaction of
 * the caller's: each holds only if its key is free, so a name taken meanwhile fails that write.
 */
export function categoryPutItems(deps: Pick<Runtime, 'tableName'>, projectId: string, category: Category): TransactItem[] {
  return [
    {
      Put: {
        TableName: deps.tableName,
        Item: { ...keys.categoryName(projectId, category.name), entity: 'category_name', v: SCHEMA_VERSION, categoryId: category.id },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: deps.tableName,
        Item: { ...keys.category(projectId, category.id), entity: ENTITY, v: SCHEMA_VERSION, ...category },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
}
