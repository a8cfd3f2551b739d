import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Runtime } from '../runtime.js';

type Deps = Pick<Runtime, 'ddb'>;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

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
 * condition to its meaning (a duplicate code, a vanished campaign) by position.
 * @throws Error on anything but a cancellation or a conflict (those are outcomes).
 */
export async function transact(deps: Deps, items: TransactItem[]): Promise<TransactOutcome> {
  if (items.length > MAX_TRANSACTION_ITEMS) throw new Error(`A transaction holds at most ${MAX_TRANSACTION_ITEMS} items`);
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
