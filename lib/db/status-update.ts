import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Runtime } from '../runtime.js';
import type { Item, ItemKey } from './entity.js';

/**
 * Moves an existing item's `status` (aliased `#s` in `set` and `condition`) only when `condition`
 * holds, so a job's state machine never goes backwards however often its message is delivered.
 * @returns the item after the update, read through its entity, or null when the condition failed or the item is missing.
 */
export async function updateStatusIf<T>(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
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
