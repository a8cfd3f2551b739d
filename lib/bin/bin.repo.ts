import { binEntry } from '../db/entities.js';
import { type TransactItem, transact } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { BinEntry } from './bin-entry.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The write that puts an entry in the bin, for the caller's transaction (the entry and the removal go together). */
export function binEntryPut(deps: Pick<Runtime, 'tableName'>, projectId: string, entry: BinEntry): TransactItem {
  return binEntry.putIfAbsent(deps, entry, projectId);
}

export interface BinPage {
  entries: BinEntry[];
  hasMore: boolean;
}

/**
 * One page of a project's bin in id (= time) order, reading at most `limit + 1` entries: the
 * extra one only tells whether more follow.
 */
export async function listBinEntries(
  deps: Deps,
  projectId: string,
  options: { limit: number; descending: boolean; startingAfterId: string | undefined },
): Promise<BinPage> {
  const items = await binEntry.queryPage(
    deps,
    { key: [projectId] },
    {
      ascending: !options.descending,
      pageSize: options.limit + 1,
      startAfter: options.startingAfterId ? binEntry.key(projectId, options.startingAfterId) : undefined,
    },
  );
  return { entries: items.slice(0, options.limit), hasMore: items.length > options.limit };
}

/** The entry, or null when the project's bin has none of that id. */
export function getBinEntry(deps: Deps, projectId: string, entryId: string): Promise<BinEntry | null> {
  return binEntry.get(deps, binEntry.key(projectId, entryId));
}

/** Removes the entry; false when it was gone already (a concurrent delete won). */
export async function removeBinEntry(deps: Deps, projectId: string, entryId: string): Promise<boolean> {
  const outcome = await transact(deps, [
    { Delete: { TableName: deps.tableName, Key: binEntry.key(projectId, entryId), ConditionExpression: 'attribute_exists(PK)' } },
  ]);
  if (outcome.ok) return true;
  if ('failed' in outcome) return false;
  throw new Error(`Bin entry ${entryId} could not be deleted: too many concurrent writes`);
}
