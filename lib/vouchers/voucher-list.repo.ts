import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  voucherPageBookmark,
  type VoucherPageBookmark,
  voucher as voucherEntity,
  voucherByCategory,
  voucherByChange,
  voucherByHolder,
  voucherByProject,
  voucherId as voucherIdRef,
} from '../db/entities.js';
import type { ItemKey } from '../db/entity.js';
import { tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from './voucher.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Which list of vouchers a page is read from; each is one partition of an index, sorted by
 * creation time then id, except `changes`, sorted by last change (`updatedAt`, else `createdAt`) then id.
 */
export type VoucherListSource =
  /** Every voucher of the project: the keys-only GSI3. */
  | { by: 'project' }
  /** The vouchers of one campaign: GSI1. */
  | { by: 'campaign'; campaignId: string }
  /** The vouchers one customer holds: GSI2 (entries set with the holder). */
  | { by: 'holder'; customerId: string }
  /** The vouchers of one category (by its id): the sparse keys-only GSI4. */
  | { by: 'category'; categoryId: string }
  /** Every voucher of the project by last change: the keys-only GSI5. */
  | { by: 'changes' };

/** How a page is read: the list's direction and the range of sort keys (`<createdAt>#<id>`, or `<changedAt>#<id>` for `changes`; both ends included). */
export interface VoucherListRead {
  source: VoucherListSource;
  ascending: boolean;
  range: { from?: string; to?: string };
}

/** What a page read: the vouchers, whether more follow, and how many index entries and items it read (for the benchmark). */
export interface VoucherListPage {
  vouchers: Voucher[];
  hasMore: boolean;
  /** Index entries this request read (the list's first entry, for a deep page, included). */
  entriesRead: number;
  /** How many entries the list has up to the last one this request saw (all of them when `hasMore` is false). */
  reached: number;
}

function partitionOf(projectId: string, source: VoucherListSource): { index: { name: string; partitionKey: string; sortKey: string }; pk: string } {
  const { gsi1, gsi2, gsi3, gsi4, gsi5 } = tableDesign.indexes;
  switch (source.by) {
    case 'project':
      return { index: gsi3, pk: voucherByProject.partition(projectId) };
    case 'campaign':
      return { index: gsi1, pk: voucherEntity.index.partition(projectId, source.campaignId) };
    case 'holder':
      return { index: gsi2, pk: voucherByHolder.partition(projectId, source.customerId) };
    case 'category':
      return { index: gsi4, pk: voucherByCategory.partition(projectId, source.categoryId) };
    case 'changes':
      return { index: gsi5, pk: voucherByChange.partition(projectId) };
  }
}

/** How long the page bounds of a list are reused: a client paging through a list does so within minutes. */
export const BOOKMARK_SECONDS = 300;

type Entry = Record<string, string>;

/** The table keys of a page's entries, whether more follow, and what reading them took. */
interface PageKeys {
  keys: ItemKey[];
  hasMore: boolean;
  entriesRead: number;
  reached: number;
}

/** One Query call of a list, keys only (the table's and the index's), from `start`, of at most `limit` entries. */
async function queryEntries(
  deps: Deps,
  projectId: string,
  read: VoucherListRead,
  limit: number,
  start: Record<string, unknown> | undefined,
): Promise<{ entries: Entry[]; next: Record<string, unknown> | undefined }> {
  const { index, pk } = partitionOf(projectId, read.source);
  const { from, to } = read.range;
  const sortCondition =
    from !== undefined && to !== undefined
      ? ' AND #sk BETWEEN :from AND :to'
      : from !== undefined
        ? ' AND #sk >= :from'
        : to !== undefined
          ? ' AND #sk <= :to'
          : '';
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.tableName,
      IndexName: index.name,
      KeyConditionExpression: `#pk = :pk${sortCondition}`,
      ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey, '#tpk': tableDesign.partitionKey, '#tsk': tableDesign.sortKey },
      ExpressionAttributeValues: { ':pk': pk, ...(from !== undefined ? { ':from': from } : {}), ...(to !== undefined ? { ':to': to } : {}) },
      ProjectionExpression: '#tpk, #tsk, #pk, #sk',
      ScanIndexForward: read.ascending,
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  return { entries: (res.Items ?? []) as Entry[], next: res.LastEvaluatedKey };
}

/** `count` entries of a list from `start` (fewer at its end), each Query asking only for what is still missing. */
async function walk(deps: Deps, projectId: string, read: VoucherListRead, count: number, start: Entry | undefined): Promise<Entry[]> {
  const entries: Entry[] = [];
  let next: Record<string, unknown> | undefined = start;
  do {
    const page = await queryEntries(deps, projectId, read, count - entries.length, next);
    entries.push(...page.entries);
    next = page.next;
  } while (next && entries.length < count);
  return entries;
}

/** The bookmark of a list: one per source, range, direction and page size. */
function listIdOf(read: VoucherListRead, limit: number): string {
  return createHash('sha256')
    .update(JSON.stringify([read.source, read.range.from ?? null, read.range.to ?? null, read.ascending, limit]))
    .digest('hex')
    .slice(0, 32);
}

/**
 * The table keys of page `page` (of `limit` entries) of a list, and whether one more entry follows.
 * Page 1 reads `limit + 1` entries. A deeper page starts at the last page bound its list's bookmark
 * holds (the key of the last entry of page k ≤ page − 1), read with the list's first entry in
 * parallel; the bookmark holds while that first entry is unchanged and it is under
 * BOOKMARK_SECONDS old. From there it reads (page − 1 − k) × limit + limit + 1 entries (keys only:
 * ~150 bytes each on GSI3), records the bounds of the pages it passed, and so a client paging
 * forward, or asking for the same deep page again, reads about one page's entries per request.
 */
async function keysOfPage(deps: Deps, projectId: string, read: VoucherListRead, page: number, limit: number, nowSeconds: number): Promise<PageKeys> {
  const keysOf = (entries: Entry[]) => entries.map((e) => ({ PK: e[tableDesign.partitionKey] as string, SK: e[tableDesign.sortKey] as string }));
  if (page === 1) {
    const entries = await walk(deps, projectId, read, limit + 1, undefined);
    return { keys: keysOf(entries.slice(0, limit)), hasMore: entries.length > limit, entriesRead: entries.length, reached: entries.length };
  }
  const { index } = partitionOf(projectId, read.source);
  const listId = listIdOf(read, limit);
  const bookmarkKey = voucherPageBookmark.key(projectId, listId);
  const [bookmark, first] = await Promise.all([
    voucherPageBookmark.get(deps, bookmarkKey, { consistent: false }),
    queryEntries(deps, projectId, read, 1, undefined),
  ]);
  const head = first.entries[0]?.[index.sortKey];
  if (head === undefined) return { keys: [], hasMore: false, entriesRead: 1, reached: 0 };
  const valid = bookmark !== null && bookmark.head === head && bookmark.expiresAt > nowSeconds;
  const bounds = valid ? bookmark.bounds : {};
  let known = 0;
  for (let k = page - 1; k > 0; k -= 1) {
    if (bounds[String(k)]) {
      known = k;
      break;
    }
  }
  const skip = (page - 1 - known) * limit;
  const entries = await walk(deps, projectId, read, skip + limit + 1, known > 0 ? bounds[String(known)] : undefined);
  const passed: Record<string, Entry> = {};
  for (let j = 1; j * limit <= Math.min(entries.length, skip + limit); j += 1) passed[String(known + j)] = entries[j * limit - 1] as Entry;
  const fresh = Object.keys(passed).filter((k) => !bounds[k]);
  if (fresh.length > 0)
    await saveBounds(
      deps,
      [projectId, listId],
      valid ? null : { head, bounds: {}, expiresAt: nowSeconds + BOOKMARK_SECONDS },
      Object.fromEntries(fresh.map((k) => [k, passed[k] as Entry])),
    );
  return {
    keys: keysOf(entries.slice(skip, skip + limit)),
    hasMore: entries.length > skip + limit,
    entriesRead: entries.length + 1,
    reached: known * limit + entries.length,
  };
}

/**
 * Adds page bounds to a list's bookmark (`fresh`: replaces it first, for a new or outdated one).
 * Best effort: a lost race with another request only costs a later one a longer walk.
 */
async function saveBounds(deps: Deps, [projectId, listId]: [string, string], fresh: VoucherPageBookmark | null, bounds: Record<string, Entry>): Promise<void> {
  if (fresh) {
    await deps.ddb.send(new PutCommand({ TableName: deps.tableName, Item: voucherPageBookmark.toItem({ ...fresh, bounds }, projectId, listId) }));
    return;
  }
  const key = voucherPageBookmark.key(projectId, listId);
  const entries = Object.entries(bounds);
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: key,
        UpdateExpression: `SET ${entries.map((_, i) => `bounds.#b${i} = :b${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(bounds)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#b${i}`, k])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:b${i}`, v])),
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Page `page` of a list of vouchers (keysOfPage), each
 * voucher then read by its key (BatchGetItem, strongly consistent). A voucher deleted between the
 * two reads is left out (the page is one shorter), as an index read a moment old would miss it.
 */
export async function listVoucherPage(deps: Deps, projectId: string, read: VoucherListRead, page: number, limit: number, now: Date): Promise<VoucherListPage> {
  const found = await keysOfPage(deps, projectId, read, page, limit, Math.floor(now.getTime() / 1000));
  return readVouchers(deps, projectId, found);
}

async function readVouchers(deps: Deps, projectId: string, page: PageKeys): Promise<VoucherListPage> {
  const { hasMore, entriesRead, reached } = page;
  if (page.keys.length === 0) return { vouchers: [], hasMore, entriesRead, reached };
  const found = await voucherEntity.getMany(deps, page.keys, `Too many concurrent reads of vouchers of project ${projectId}`);
  const byKey = new Map(found.map((v) => [voucherEntity.key(projectId, v.code).PK, v]));
  return { vouchers: page.keys.flatMap((k) => byKey.get(k.PK) ?? []), hasMore, entriesRead, reached };
}

/**
 * The vouchers named by codes (`named`, ≤ 100) and / or `ids` (≤ 100), read by key (BatchGetItem of
 * the id pointers, then of the vouchers; strongly consistent). With both, only the vouchers that
 * have one of the codes and one of the ids. Names that match no voucher are left out.
 */
export async function getVouchersByCodeOrIds(
  deps: Deps,
  projectId: string,
  named: readonly string[] | undefined,
  ids: readonly string[] | undefined,
): Promise<Voucher[]> {
  const busy = `Too many concurrent reads of vouchers of project ${projectId}`;
  let codes = named !== undefined ? [...named] : [];
  if (ids !== undefined) {
    const refs = await voucherIdRef.getMany(
      deps,
      [...new Set(ids)].map((id) => voucherIdRef.key(projectId, id)),
      busy,
    );
    const byIds = refs.map((r) => r.code);
    codes = named !== undefined ? codes.filter((c) => byIds.includes(c)) : byIds;
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
