import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { sleep } from '../builtins.js';
import { ConflictRetryError, InvalidPayloadError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { Item, ItemKey } from './entity.js';
import { transactionOversize } from './item-size.js';

type Deps = Pick<Runtime, 'ddb'>;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A transaction's check that the item at `key` exists (its condition fails when the item is gone). */
export const mustExist = (deps: Pick<Runtime, 'tableName'>, key: ItemKey): TransactItem => ({
  ConditionCheck: { TableName: deps.tableName, Key: key, ConditionExpression: 'attribute_exists(PK)' },
});

/** DynamoDB's limit on the items of one TransactWriteItems call. */
export const MAX_TRANSACTION_ITEMS = 100;

/**
 * What became of a transaction: written; refused because the conditions of the listed items
 * failed (their indexes in the request); or lost a race with another writer (nothing failed
 * its condition, so the same request may simply be retried).
 */
export type TransactOutcome = { ok: true } | { ok: false; failed: number[] } | { ok: false; conflict: true };

/**
 * Runs one all-or-nothing write and says which conditions failed, so callers can map a failed
 * condition to its meaning (a duplicate code, a vanished campaign) by position. Every write is
 * measured first (lib/db/item-size.ts), so what a request makes too large for DynamoDB is its 400,
 * not DynamoDB's ValidationError as a 500, whichever route built it.
 * @throws InvalidPayloadError when an item or the whole write would not fit; Error on anything but a cancellation or a conflict (those are outcomes).
 */
export async function transact(deps: Deps, items: TransactItem[]): Promise<TransactOutcome> {
  if (items.length > MAX_TRANSACTION_ITEMS) throw new Error(`A transaction holds at most ${MAX_TRANSACTION_ITEMS} items`);
  const oversize = transactionOversize(items);
  if (oversize) throw new InvalidPayloadError(`This write cannot be stored: ${oversize}`);
  try {
    await deps.ddb.send(new TransactWriteCommand({ TransactItems: items }));
    return { ok: true };
  } catch (error) {
    if (error instanceof TransactionConflictException) return { ok: false, conflict: true };
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    if (reasons.some((r) => !['None', 'ConditionalCheckFailed', 'TransactionConflict'].includes(r.Code ?? 'None'))) throw error;
    const failed = reasons.flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
    if (failed.length > 0) return { ok: false, failed };
    return { ok: false, conflict: true };
  }
}

/**
 * A condition on items a caller added to another write failed (e.g. a new category's name was
 * taken meanwhile): nothing was written, and the caller re-plans those items and tries again.
 */
export class ExtraItemsConflictError extends Error {
  constructor() {
    super('A condition on the extra items of a write failed');
  }
}

/** Attempts before a contended write gives up (ConflictRetryError at the caller). */
export const MAX_CONFLICT_ATTEMPTS = 40;

/** Full jitter, capped: contenders spread out instead of colliding again in lockstep. */
export async function backoff(attempt: number): Promise<void> {
  await sleep(Math.random() * Math.min(60, 3 + attempt * 5));
}

/** What an attempt of retryOnConflict returns to be tried again (after a backoff). */
export const RETRY: unique symbol = Symbol('retry');

/**
 * Retry on a transaction conflict: runs `attempt` (given its number, from 0) until it returns
 * anything but RETRY, backing off between attempts, at most MAX_CONFLICT_ATTEMPTS times. An
 * attempt re-reads whatever its write is conditioned on, so a lost race is simply run again.
 * @throws ConflictRetryError with `busy` as its details when every attempt asked to retry; whatever `attempt` throws.
 */
export async function retryOnConflict<T>(busy: string, attempt: (n: number) => Promise<T | typeof RETRY>): Promise<T> {
  for (let n = 0; n < MAX_CONFLICT_ATTEMPTS; n += 1) {
    const result = await attempt(n);
    if (result !== RETRY) return result;
    await backoff(n);
  }
  throw new ConflictRetryError(busy);
}

/**
 * Put-unique: claims a unique name or code and writes what it names in one transaction, each
 * Put holding only where its key is free, retrying lost races. `claim` is the item whose key is
 * the name or code (a reservation, or the entity itself when keyed by it); `items` go with it.
 * @returns false when the name or code is taken: nothing is written.
 * @throws Error with `errors.taken` when a key of `items` is taken (random ids: a bug, not a
 *   client error); ConflictRetryError with `errors.busy` when contention outlasts the retries.
 */
export async function putUnique(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
  claim: Item,
  items: Item[],
  errors: { busy: string; taken: string },
): Promise<boolean> {
  const puts = [claim, ...items].map((Item): TransactItem => ({ Put: { TableName: deps.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' } }));
  return retryOnConflict(errors.busy, async () => {
    const outcome = await transact(deps, puts);
    if (outcome.ok) return true;
    if (!('failed' in outcome)) return RETRY;
    if (outcome.failed.includes(0)) return false;
    throw new Error(errors.taken);
  });
}
