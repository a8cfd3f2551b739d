import { keys } from '../db/keys.js';
import { queryAll } from '../db/query.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { CardTransaction } from './card-transaction.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The transaction item recording a card transaction; its id is fixed before retries, so it is stored once. */
export const putCardTransactionItem = (deps: Deps, t: CardTransaction): TransactItem => ({
  Put: {
    TableName: deps.tableName,
    Item: { ...keys.cardTransaction(t.projectId, t.voucherId, t.createdAt, t.id), entity: 'card_transaction', v: 1, ...t },
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

/** A card's transactions, oldest first (one Query on the card's transaction partition). */
export async function listCardTransactions(deps: Deps, projectId: string, voucherId: string): Promise<CardTransaction[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.cardTransactionsPartition(projectId, voucherId) },
    ConsistentRead: true,
  });
  return items.map((item) => {
    const { PK: _pk, SK: _sk, entity: _e, v: _v, ...rest } = item;
    return rest as unknown as CardTransaction;
  });
}
