import { binEntry } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
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
