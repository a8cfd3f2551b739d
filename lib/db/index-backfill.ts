import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Runtime } from '../runtime.js';
import type { ItemKey } from './entity.js';
import { ENTITY_ATTR } from './table.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** What a backfill did. */
export interface IndexBackfill {
  /** Items found without their index entry. */
  found: number;
  /** Given their entry now. */
  updated: number;
  /** Deleted (or changed) between the Scan and the write: nothing to do. */
  gone: number;
}

/** The items of one entity to give an index entry, and how. */
export interface IndexBackfillSpec<T> {
  /** The stored type's name (`ENTITY_ATTR`). */
  entity: string;
  /** The index's partition key attribute: items that lack it are the ones to fill. */
  partitionKey: string;
  /** The index's sort key attribute. */
  sortKey: string;
  /** Further Scan filter on what needs an entry (e.g. a campaign to list under), with its names and values. */
  needs?: { filter: string; names: Record<string, string>; values: Record<string, unknown> };
  fromItem: (item: Record<string, unknown>) => T;
  /** The item's table key. */
  keyOf: (value: T) => ItemKey;
  /** The entry's partition and sort values, from fields that never change, so a rerun writes the same. */
  entryOf: (value: T) => { pk: unknown; sk: unknown } | null;
  /** The condition that the item is still the one read, with its values. */
  same: (value: T) => { condition: string; names?: Record<string, string>; values: Record<string, unknown> };
}

/**
 * Gives items written before an index existed their entry, as every item written now gets it from its
 * entity: one filtered Scan of the table (an operator's one-off; no request path scans), of one project's items
 * only with `projectId` (the Scan still reads the table), and an UpdateItem per item conditioned on it being the
 * one read. Idempotent: a rerun finds nothing.
 */
export async function backfillIndexEntries<T>(deps: Deps, spec: IndexBackfillSpec<T>, projectId?: string): Promise<IndexBackfill> {
  const report: IndexBackfill = { found: 0, updated: 0, gone: 0 };
  const names: Record<string, string> = { '#entity': ENTITY_ATTR, '#pk': spec.partitionKey, ...spec.needs?.names };
  const values: Record<string, unknown> = { ':entity': spec.entity, ...spec.needs?.values };
  let filter = `#entity = :entity AND attribute_not_exists(#pk)${spec.needs ? ` AND ${spec.needs.filter}` : ''}`;
  if (projectId !== undefined) {
    names['#project'] = 'projectId';
    values[':project'] = projectId;
    filter += ' AND #project = :project';
  }
  let start: Record<string, unknown> | undefined;
  do {
    const res = await deps.ddb.send(
      new ScanCommand({
        TableName: deps.tableName,
        FilterExpression: filter,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) {
      const value = spec.fromItem(item);
      const entry = spec.entryOf(value);
      if (!entry) continue;
      report.found += 1;
      const same = spec.same(value);
      try {
        await deps.ddb.send(
          new UpdateCommand({
            TableName: deps.tableName,
            Key: spec.keyOf(value),
            UpdateExpression: 'SET #pk = :pk, #sk = :sk',
            ConditionExpression: same.condition,
            ExpressionAttributeNames: { '#pk': spec.partitionKey, '#sk': spec.sortKey, ...same.names },
            ExpressionAttributeValues: { ':pk': entry.pk, ':sk': entry.sk, ...same.values },
          }),
        );
        report.updated += 1;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        report.gone += 1;
      }
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return report;
}
