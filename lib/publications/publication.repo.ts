import { countAdd } from '../db/counters.js';
import { getInOrder, queryPage } from '../db/query-page.js';
import { publication as publicationEntity, publicationCount, publicationListEntry, publicationSourceId } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { countShardOf, type Publication, viewsOf } from './publication.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A publication by id (strongly consistent); null if none. */
export function getPublication(deps: Deps, projectId: string, publicationId: string): Promise<Publication | null> {
  return publicationEntity.get(deps, publicationEntity.key(projectId, publicationId));
}

/** The publication and customer a publication `source_id` names (strongly consistent); null if the source id is free. */
export function getPublicationSourceId(deps: Deps, projectId: string, sourceId: string): Promise<{ publicationId: string; customerId: string } | null> {
  return publicationSourceId.get(deps, publicationSourceId.key(projectId, sourceId));
}

/**
 * The items storing a new publication: the publication itself (index 0; its condition fails only
 * if the id is taken), its entry in each of its views and +1 on each view's count. With a
 * `source_id`, its reservation follows at index 1 (its condition fails when the source id is
 * taken). `genericVoucherId` names the generic code it gave, whose own view lists it.
 */
export function publicationItems(deps: Deps, p: Publication, genericVoucherId: string | null): TransactItem[] {
  const items: TransactItem[] = [publicationEntity.putIfAbsent(deps, p)];
  if (p.sourceId !== null) items.push(publicationSourceId.putIfAbsent(deps, { publicationId: p.id, customerId: p.customerId }, p.projectId, p.sourceId));
  const shard = countShardOf(p.id);
  for (const view of viewsOf(p, genericVoucherId)) {
    items.push({ Put: { TableName: deps.tableName, Item: publicationListEntry.toItem({ view, publicationId: p.id, createdAt: p.createdAt }, p.projectId) } });
    items.push(countAdd(deps, publicationCount, publicationCount.key(p.projectId, view, shard), 1));
  }
  return items;
}

/** How many publications a view holds: the sum of its count shards (one Query of at most 8 small items, strongly consistent). */
export async function countPublications(deps: Deps, projectId: string, view: string): Promise<number> {
  const shards = await publicationCount.query(deps, { key: [projectId, view] }, { consistent: true });
  return shards.reduce((sum, shard) => sum + shard.count, 0);
}

/**
 * The ids of the publications on one page of a view, by creation: skips `skip` entries in the
 * order and sort key range given, takes `take`, and reads one more to know whether any follow.
 * Reads only that many entries (small items), never the rest of the view.
 */
export async function listPublicationIds(
  deps: Deps,
  projectId: string,
  view: string,
  read: { ascending: boolean; range: { from?: string; to?: string } },
  skip: number,
  take: number,
): Promise<{ ids: string[]; hasMore: boolean }> {
  const page = await queryPage(
    (pageSize) =>
      publicationListEntry.queryPages(deps, { key: [projectId, view] }, { ascending: read.ascending, pageSize, sortRange: read.range, consistent: true }),
    skip,
    take,
  );
  return { ids: page.items.map((entry) => entry.publicationId), hasMore: page.hasMore };
}

/** The publications of `ids` (≤ 100, strongly consistent), in that order. */
export async function getPublications(deps: Deps, projectId: string, ids: string[]): Promise<Publication[]> {
  return getInOrder(deps, publicationEntity, projectId, ids, 'publications');
}
