import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Runtime } from '../runtime.js';
import type { Item, ItemKey } from './entity.js';
import { backoff } from './transact.js';

/** Items per BatchWriteItem call (DynamoDB's limit). */
const BATCH = 25;

/**
 * Puts items with BatchWriteItem, 25 per call on `lanes` parallel lanes, writing again what the
 * table leaves unprocessed (with backoff). A blind Put: only for items whose content is fixed by
 * their key (a rerun writes the same item), such as a backfill's, never where a duplicate matters.
 */
export async function putAll(deps: Pick<Runtime, 'ddb' | 'tableName'>, items: readonly Item[], lanes = 8): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const batch = items.slice(next, next + BATCH);
      next += BATCH;
      let pending = batch.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length > 0; attempt += 1) {
        if (attempt > 0) await backoff(attempt);
        const res = await deps.ddb.send(new BatchWriteCommand({ RequestItems: { [deps.tableName]: pending } }));
        pending = (res.UnprocessedItems?.[deps.tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

/**
 * Deletes items by key with BatchWriteItem, 25 per call on `lanes` lanes, again what the table leaves
 * unprocessed. Blind and idempotent: a key with no item is no error.
 */
export async function deleteAll(deps: Pick<Runtime, 'ddb' | 'tableName'>, keys: readonly ItemKey[], lanes = 4): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < keys.length) {
      const batch = keys.slice(next, next + BATCH);
      next += BATCH;
      let pending = batch.map((Key) => ({ DeleteRequest: { Key } }));
      for (let attempt = 0; pending.length > 0; attempt += 1) {
        if (attempt > 0) await backoff(attempt);
        const res = await deps.ddb.send(new BatchWriteCommand({ RequestItems: { [deps.tableName]: pending } }));
        pending = (res.UnprocessedItems?.[deps.tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}
