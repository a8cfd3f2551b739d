import type { ItemKey } from './entity.js';
import type { TransactItem } from './transact.js';

/**
 * The transaction item that adds `delta` to a counter item's `count` (a shard of a sharded count, or a
 * project's single counter), creating it on first use with its entity name and layout version. No
 * condition: callers that cap a count add their own item.
 */
export function countAdd(deps: { tableName: string }, counter: { name: string; version: number }, key: ItemKey, delta: number): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: key,
      UpdateExpression: 'SET entity = :entity, v = :v ADD #count :delta',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':entity': counter.name, ':v': counter.version, ':delta': delta },
    },
  };
}
