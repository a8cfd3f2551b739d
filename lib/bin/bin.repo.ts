import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { BinEntry } from './bin-entry.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const ENTITY = 'bin_entry';
const SCHEMA_VERSION = 1;

/** The write that puts an entry in the bin, for the caller's transaction (the entry and the removal go together). */
export function binEntryPut(deps: Pick<Runtime, 'tableName'>, projectId: string, entry: BinEntry): TransactItem {
  return {
    Put: {
      TableName: deps.tableName,
      Item: { ...keys.binEntry(projectId, entry.id), entity: ENTITY, v: SCHEMA_VERSION, ...entry },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

const toDomain = (item: Record<string, unknown>): BinEntry => {
  const i = item as unknown as BinEntry;
  return {
    id: i.id,
    createdAt: i.createdAt,
    deletedByUserId: i.deletedByUserId ?? null,
    resourceId: i.resourceId,
    resourceType: i.resourceType,
    resourceName: i.resourceName,
    resourceParentId: i.resourceParentId ?? null,
    snapshot: i.snapshot,
  };
};

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
  const pk = keys.binPartition(projectId);
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ScanIndexForward: !options.descending,
      Limit: options.limit + 1,
      ExclusiveStartKey: options.startingAfterId ? keys.binEntry(projectId, options.startingAfterId) : undefined,
    }),
  );
  const items = (res.Items ?? []).map(toDomain);
  return { entries: items.slice(0, options.limit), hasMore: items.length > options.limit };
}
