import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Runtime } from '../runtime.js';
import type { Item, ItemKey } from './entity.js';
import { RETRY, retryOnConflict, transact, type TransactItem } from './transact.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Moves an existing item's `status` (aliased `#s` in `set` and `condition`) only when `condition`
 * holds, so a job's state machine never goes backwards however often its message is delivered.
 * @returns the item after the update, read through its entity, or null when the condition failed or the item is missing.
 */
export async function updateStatusIf<T>(
  deps: Deps,
  entity: { fromItem(item: Item): T },
  key: ItemKey,
  set: string,
  condition: string,
  values: Record<string, unknown>,
): Promise<T | null> {
  try {
    const res = await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: key,
        UpdateExpression: set,
        ConditionExpression: `attribute_exists(PK) AND ${condition}`,
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return res.Attributes ? entity.fromItem(res.Attributes) : null;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return null;
    throw error;
  }
}

/**
 * updateStatusIf in one transaction with `also` (items without conditions, e.g. the Delete of a
 * job's open-job marker when the move ends the job), so both happen or neither does. A
 * transaction returns no attributes, so the item is read back (consistently) afterwards.
 * @returns the item as read after the move, or null when the condition failed or the item is missing.
 * @throws ConflictRetryError with `busy` when concurrent writes keep cancelling the transaction.
 */
export async function updateStatusWith<T>(
  deps: Deps,
  entity: { get(deps: Deps, key: ItemKey): Promise<T | null> },
  key: ItemKey,
  move: { set: string; condition: string; values: Record<string, unknown>; names?: Record<string, string> },
  also: readonly TransactItem[],
  busy: string,
): Promise<T | null> {
  const update: TransactItem = {
    Update: {
      TableName: deps.tableName,
      Key: key,
      UpdateExpression: move.set,
      ConditionExpression: `attribute_exists(PK) AND ${move.condition}`,
      ExpressionAttributeNames: { '#s': 'status', ...move.names },
      ExpressionAttributeValues: move.values,
    },
  };
  const moved = await retryOnConflict(busy, async () => {
    const outcome = await transact(deps, [update, ...also]);
    if (outcome.ok) return true;
    if ('failed' in outcome) return false;
    return RETRY;
  });
  return moved ? entity.get(deps, key) : null;
}
