import { cardTransaction } from '../db/entities.js';
import type { ItemKeys } from '../db/entity.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { CardTransaction } from './card-transaction.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The transaction item recording a card transaction; its id is fixed before retries, so it is stored once. */
export const putCardTransactionItem = (deps: Deps, t: CardTransaction): TransactItem => cardTransaction.putIfAbsent(deps, t);

/** A card's transactions, oldest first (one Query on the card's transaction partition). */
export function listCardTransactions(deps: Deps, projectId: string, voucherId: string): Promise<CardTransaction[]> {
  return cardTransaction.query(deps, { key: [projectId, voucherId] }, { consistent: true });
}

/** A transaction by its id (GSI1, one item; eventually consistent), or null. */
export async function findCardTransaction(deps: Deps, projectId: string, transactionId: string): Promise<CardTransaction | null> {
  const [found] = await cardTransaction.queryPage(deps, { index: [projectId, transactionId] }, { pageSize: 1 });
  return found ?? null;
}

/**
 * One page of a voucher's transactions in time order (oldest first unless `ascending` is false),
 * after `after` when given: one Query reading at most `limit + 1` items, the extra one telling
 * whether there is more.
 */
export async function cardTransactionPage(
  deps: Deps,
  projectId: string,
  voucherId: string,
  limit: number,
  ascending: boolean,
  after: CardTransaction | null,
): Promise<{ transactions: CardTransaction[]; hasMore: boolean }> {
  const page = await cardTransaction.queryPage(
    deps,
    { key: [projectId, voucherId] },
    { consistent: true, ascending, pageSize: limit + 1, startAfter: after ? cardTransaction.key(projectId, voucherId, after.createdAt, after.id) : undefined },
  );
  return { transactions: page.slice(0, limit), hasMore: page.length > limit };
}

/** The start key of a GSI2 Query: the table's key and the index's, nothing else. */
function gsi2StartKey(t: CardTransaction): ItemKeys {
  const { PK, SK, GSI2PK, GSI2SK } = cardTransaction.keysOf(t);
  return { PK, SK, GSI2PK, GSI2SK };
}

/**
 * One page of a campaign's transactions in time order (sparse GSI2, eventually consistent), after
 * `after` when given: one Query reading at most `limit + 1` entries.
 */
export async function campaignTransactionPage(
  deps: Deps,
  projectId: string,
  campaignId: string,
  limit: number,
  ascending: boolean,
  after: CardTransaction | null,
): Promise<{ transactions: CardTransaction[]; hasMore: boolean }> {
  const page = await cardTransaction.queryPage(
    deps,
    { sparse: [projectId, campaignId] },
    { ascending, pageSize: limit + 1, startAfter: after ? gsi2StartKey(after) : undefined },
  );
  return { transactions: page.slice(0, limit), hasMore: page.length > limit };
}
