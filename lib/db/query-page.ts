import type { Runtime } from '../runtime.js';
import type { ItemKey } from './entity.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * One page of a list read by offset, the way the `page`/`limit` lists of the API read their
 * entries: skips `skip` items of a paged Query, takes `take`, and reads one more to know whether
 * any follow. `query` opens the Query with the page size that covers all of that in one round trip
 * (`skip + take + 1`); reading stops as soon as the items are in, so the rest of the partition is
 * never read. (Unlike an entity's `queryPage`, which returns a single DynamoDB page.)
 */
export async function queryPage<T>(query: (pageSize: number) => AsyncIterable<T[]>, skip: number, take: number): Promise<{ items: T[]; hasMore: boolean }> {
  const want = skip + take + 1;
  const read: T[] = [];
  for await (const page of query(want)) {
    read.push(...page);
    if (read.length >= want) break;
  }
  return { items: read.slice(skip, skip + take), hasMore: read.length > skip + take };
}

/** What `getInOrder` needs of an entity keyed by project and id. */
interface ById<T> {
  key(projectId: string, id: string): ItemKey;
  getMany(deps: Deps, keys: ItemKey[], busy: string): Promise<T[]>;
}

/**
 * The items of a project named by `ids` (≤ 100, strongly consistent), in the order of `ids`: the
 * second read of a list page, whose BatchGetItem answers in no order. Ids whose item is gone
 * meanwhile are left out; `plural` names the items in the throttling error.
 */
export async function getInOrder<T extends { id: string }>(deps: Deps, entity: ById<T>, projectId: string, ids: string[], plural: string): Promise<T[]> {
  const found = await entity.getMany(
    deps,
    ids.map((id) => entity.key(projectId, id)),
    `Too many concurrent reads of ${plural} of project ${projectId}`,
  );
  const byId = new Map(found.map((item) => [item.id, item]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
