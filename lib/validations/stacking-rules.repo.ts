import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { stackingRules as stackingRulesEntity } from '../db/entities.js';
import type { Runtime } from '../runtime.js';
import type { StackingRules } from './stacking-rules.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The project's stacking rules as stored, with the time they were last set; null = never set. */
export type StoredStackingRules = StackingRules & { updatedAt: string; id?: string; createdAt?: string };

/** The project's stacking rules item (strongly consistent); null if never set. */
export const getStoredStackingRules = (deps: Deps, projectId: string): Promise<StoredStackingRules | null> =>
  stackingRulesEntity.get(deps, stackingRulesEntity.key(projectId));

/**
 * Writes `next` over `read` (null: none yet), holding only while the item is still as read.
 * @returns false when another write came first (nothing is written): read again.
 */
export async function putStackingRules(deps: Deps, projectId: string, read: StoredStackingRules | null, next: StoredStackingRules): Promise<boolean> {
  try {
    await deps.ddb.send(
      new PutCommand({
        TableName: deps.tableName,
        Item: stackingRulesEntity.toItem(next, projectId),
        ...(read === null
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : { ConditionExpression: 'updatedAt = :read', ExpressionAttributeValues: { ':read': read.updatedAt } }),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Removes the project's rules while they are still the item with id `id`: the project is back to the defaults.
 * @returns false when there is no such item (never set, another id, or already removed).
 */
export async function removeStackingRules(deps: Deps, projectId: string, id: string): Promise<boolean> {
  try {
    await deps.ddb.send(
      new DeleteCommand({
        TableName: deps.tableName,
        Key: stackingRulesEntity.key(projectId),
        ConditionExpression: 'id = :id',
        ExpressionAttributeValues: { ':id': id },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
