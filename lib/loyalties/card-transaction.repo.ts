import { cardTransaction } from '../db/entities.js';
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
