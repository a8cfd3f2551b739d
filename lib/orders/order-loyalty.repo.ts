import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { order as orderEntity, orderLoyaltyDue } from '../db/entities.js';
import { queryPages } from '../db/query.js';
import { tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';
import type { Order } from './order.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const { gsi2 } = tableDesign.indexes;

/**
 * The marked orders of one sweep shard whose mark is older than `before`, oldest first, a Query page
 * at a time (sparse GSI2 `ORDER_LOYALTY_DUE#<shard>`, sort key below `before`). Eventually
 * consistent: the sweep reads each order again before acting on it.
 */
export async function* dueOrderPages(deps: Deps, shard: number, before: string, pageSize = 100): AsyncGenerator<Order[]> {
  const pages = queryPages(deps.ddb, {
    TableName: deps.tableName,
    IndexName: gsi2.name,
    KeyConditionExpression: '#pk = :pk AND #sk < :before',
    ExpressionAttributeNames: { '#pk': gsi2.partitionKey, '#sk': gsi2.sortKey },
    ExpressionAttributeValues: { ':pk': orderLoyaltyDue.partition(shard), ':before': before },
    Limit: pageSize,
  });
  for await (const page of pages) yield page.map((item) => orderEntity.fromItem(item));
}

/**
 * Clears an order's mark and its sweep entry, only while the mark is still `dueAt` (a later move
 * to PAID or CANCELED set a new one, whose effects are due in their turn).
 * @returns false when the mark moved or the order is gone (nothing written).
 */
export async function clearLoyaltyDue(deps: Deps, projectId: string, orderId: string, dueAt: string): Promise<boolean> {
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: orderEntity.key(projectId, orderId),
        UpdateExpression: 'REMOVE loyaltyDueAt, #pk, #sk',
        ConditionExpression: 'loyaltyDueAt = :due',
        ExpressionAttributeNames: { '#pk': gsi2.partitionKey, '#sk': gsi2.sortKey },
        ExpressionAttributeValues: { ':due': dueAt },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
