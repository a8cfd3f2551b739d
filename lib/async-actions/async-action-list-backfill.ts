import { asyncAction } from '../db/entities.js';
import { backfillIndexEntries, type IndexBackfill } from '../db/index-backfill.js';
import { tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** What the backfill did. */
export type AsyncActionListBackfill = IndexBackfill;

const { gsi1 } = tableDesign.indexes;

/**
 * Gives async actions written before GET /v1/async-actions existed their GSI1 list entry (the
 * project's `ASYNC_ACTIONS` partition, `<createdAt>#<id>`), as every action written now gets it
 * from its entity. One filtered Scan (`backfillIndexEntries`); each write is conditioned on the action
 * being the one read (same id and creation time). Idempotent: a rerun finds nothing.
 */
export function backfillAsyncActionList(deps: Deps, projectId?: string): Promise<AsyncActionListBackfill> {
  return backfillIndexEntries(
    deps,
    {
      entity: asyncAction.name,
      partitionKey: gsi1.partitionKey,
      sortKey: gsi1.sortKey,
      fromItem: (item) => asyncAction.fromItem(item),
      keyOf: (action) => asyncAction.key(action.projectId, action.id),
      entryOf: (action) => {
        const keys = asyncAction.toItem(action);
        return { pk: keys[gsi1.partitionKey], sk: keys[gsi1.sortKey] };
      },
      same: (action) => ({ condition: 'id = :id AND createdAt = :createdAt', values: { ':id': action.id, ':createdAt': action.createdAt } }),
    },
    projectId,
  );
}
