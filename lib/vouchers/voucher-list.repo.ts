import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { voucher as voucherEntity, voucherByHolder, voucherByProject, voucherId as voucherIdRef } from '../db/entities.js';
import type { ItemKey } from '../db/entity.js';
import { tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from './voucher.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Which list of vouchers a page is read from; each is one partition of an index, sorted by creation time then id. */
export type VoucherListSource =
  /** Every voucher of the project: the keys-only GSI3. */
  | { by: 'project' }
  /** The vouchers of one campaign: GSI1. */
  | { by: 'campaign'; campaignId: string }
  /** The vouchers one customer holds: GSI2 (entries set with the holder). */
  | { by: 'holder'; customerId: string };

/** How a page is read: the creation order's direction and the range of sort keys (`<createdAt>#<id>`, both ends included). */
export interface VoucherListRead {
  source: VoucherListSource;
  ascending: boolean;
  range: { from?: string; to?: string };
}

/** What a page read: the vouchers, whether more follow, and how many index entries and items it read (for the benchmark). */
export interface VoucherListPage {
  vouchers: Voucher[];
  hasMore: boolean;
  entriesRead: number;
}

function partitionOf(projectId: string, source: VoucherListSource): { index: { name: string; partitionKey: string; sortKey: string }; pk: string } {
  const { gsi1, gsi2, gsi3 } = tableDesign.indexes;
  switch (source.by) {
    case 'project':
      return { index: gsi3, pk: voucherByProject.partition(projectId) };
    case 'campaign':
      return { index: gsi1, pk: voucherEntity.index.partition(projectId, source.campaignId) };
    case 'holder':
      return { index: gsi2, pk: voucherByHolder.partition(projectId, source.customerId) };
  }
}

/**
 * The table keys of entries `skip + 1 … skip + take` of a list, and whether one more follows.
 * Reads `skip + take + 1` index entries at most, keys only (on GSI3 the index holds nothing
 * else; on GSI1/GSI2 only the keys cross the wire), each Query asking for what is still missing,
 * so the read stops at the page's end and never goes on through the rest of the list.
 */
async function keysOfPage(
  deps: Deps,
  projectId: string,
  read: VoucherListRead,
  skip: number,
  take: number,
): Promise<{ keys: ItemKey[]; hasMore: boolean; entriesRead: number }> {
  const { index, pk } = partitionOf(projectId, read.source);
  const want = skip + take + 1;
  const { from, to } = read.range;
  const sortCondition =
    from !== undefined && to !== undefined
      ? ' AND #sk BETWEEN :from AND :to'
      : from !== undefined
        ? ' AND #sk >= :from'
        : to !== undefined
          ? ' AND #sk <= :to'
          : '';
  const keys: ItemKey[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.tableName,
        IndexName: index.name,
        KeyConditionExpression: `#pk = :pk${sortCondition}`,
        ExpressionAttributeNames: {
          '#pk': index.partitionKey,
          ...(sortCondition ? { '#sk': index.sortKey } : {}),
          '#tpk': tableDesign.partitionKey,
          '#tsk': tableDesign.sortKey,
        },
        ExpressionAttributeValues: { ':pk': pk, ...(from !== undefined ? { ':from': from } : {}), ...(to !== undefined ? { ':to': to } : {}) },
        ProjectionExpression: '#tpk, #tsk',
        ScanIndexForward: read.ascending,
        Limit: want - keys.length,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) keys.push({ PK: item.PK as string, SK: item.SK as string });
    start = res.LastEvaluatedKey;
  } while (start && keys.length < want);
  return { keys: keys.slice(skip, skip + take), hasMore: keys.length > skip + take, entriesRead: keys.length };
}

/**
 * One page of a list of vouchers: entries `skip + 1 … skip + take` in the list's order, each
 * voucher then read by its key (BatchGetItem, strongly consistent). A voucher deleted between the
 * two reads is left out (the page is one shorter), as an index read a moment old would miss it.
 */
export async function listVoucherPage(deps: Deps, projectId: string, read: VoucherListRead, skip: number, take: number): Promise<VoucherListPage> {
  const page = await keysOfPage(deps, projectId, read, skip, take);
  if (page.keys.length === 0) return { vouchers: [], hasMore: page.hasMore, entriesRead: page.entriesRead };
  const found = await voucherEntity.getMany(deps, page.keys, `Too many concurrent reads of vouchers of project ${projectId}`);
  const byKey = new Map(found.map((v) => [voucherEntity.key(projectId, v.code).PK, v]));
  return { vouchers: page.keys.flatMap((k) => byKey.get(k.PK) ?? []), hasMore: page.hasMore, entriesRead: page.entriesRead };
}

/**
 * The vouchers named by `code` and / or `ids` (≤ 100), read by key (GetItem, BatchGetItem of the id
 * pointers, then of the vouchers; strongly consistent). With both, only the voucher that has the
 * code and one of the ids. Names that match no voucher are left out.
 */
export async function getVouchersByCodeOrIds(deps: Deps, projectId: string, code: string | undefined, ids: readonly string[] | undefined): Promise<Voucher[]> {
  const busy = `Too many concurrent reads of vouchers of project ${projectId}`;
  let codes = code !== undefined ? [code] : [];
  if (ids !== undefined) {
    const refs = await voucherIdRef.getMany(
      deps,
      [...new Set(ids)].map((id) => voucherIdRef.key(projectId, id)),
      busy,
    );
    const byIds = refs.map((r) => r.code);
    codes = code !== undefined ? codes.filter((c) => byIds.includes(c)) : byIds;
  }
  if (codes.length === 0) return [];
  const found = await voucherEntity.getMany(
    deps,
    [...new Set(codes)].map((c) => voucherEntity.key(projectId, c)),
    busy,
  );
  // An id pointer outlives nothing, but a code may have been re-created under a new id: keep only the ids asked for.
  return ids === undefined ? found : found.filter((v) => ids.includes(v.id));
}
