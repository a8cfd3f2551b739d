import { order as orderEntity, orderCount, orderListEntry, orderSourceId } from '../db/entities.js';
import { countAdd } from '../db/counters.js';
import { getInOrder, queryPage } from '../db/query-page.js';
import { RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { type Order, orderCountShardOf } from './order.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** An order by id (strongly consistent); null if none. */
export function getOrder(deps: Deps, projectId: string, orderId: string): Promise<Order | null> {
  return orderEntity.get(deps, orderEntity.key(projectId, orderId));
}

/** The id of the order with this source id (strongly consistent); null if none. */
export async function getOrderIdBySourceId(deps: Deps, projectId: string, sourceId: string): Promise<string | null> {
  return (await orderSourceId.get(deps, orderSourceId.key(projectId, sourceId)))?.orderId ?? null;
}

/** The Put of an order's entry in the project's order list (written with the order, rewritten by each change). */
export const listEntryPut = (deps: Pick<Runtime, 'tableName'>, o: Order): TransactItem => ({
  Put: { TableName: deps.tableName, Item: orderListEntry.toItem({ orderId: o.id, createdAt: o.createdAt, updatedAt: o.updatedAt }, o.projectId) },
});

/**
 * The writes of a new order: its `source_id` claim (when it has one: index 0, whose failure means the
 * source id names a stored order), the order if absent, its list entry and one count shard.
 */
export function newOrderItems(deps: Pick<Runtime, 'tableName'>, o: Order): TransactItem[] {
  return [
    ...(o.sourceId !== null ? [orderSourceId.putIfAbsent(deps, { orderId: o.id }, o.projectId, o.sourceId)] : []),
    orderEntity.putIfAbsent(deps, o),
    listEntryPut(deps, o),
    countAdd(deps, orderCount, orderCount.key(o.projectId, orderCountShardOf(o.id)), 1),
  ];
}

/**
 * Writes a new order, claims its source id (when it has one), lists it and counts it, in one
 * transaction.
 * @returns false when the source id is already claimed (by a concurrent writer): nothing is written.
 * @throws Error when the order id is taken (random ids: a bug).
 */
export function insertOrder(deps: Deps, o: Order): Promise<boolean> {
  const items = newOrderItems(deps, o);
  return retryOnConflict(`Too many concurrent writes of order ${o.sourceId ?? o.id}`, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return true;
    if (!('failed' in outcome)) return RETRY;
    if (o.sourceId !== null && outcome.failed.includes(0)) return false;
    throw new Error(`Order id ${o.id} is already taken`);
  });
}

/**
 * Replaces the order `read` with `next` (same id, revision one higher) and moves its list entry's
 * change time, in one transaction that holds only if the stored order is still `read`.
 * @returns false when the order changed meanwhile (nothing is written): read it again.
 */
export async function replaceOrder(deps: Deps, read: Order, next: Order): Promise<boolean> {
  const outcome = await transact(deps, [
    {
      Put: {
        TableName: deps.tableName,
        Item: orderEntity.toItem(next),
        ConditionExpression: 'revision = :rev',
        ExpressionAttributeValues: { ':rev': read.revision },
      },
    },
    listEntryPut(deps, next),
  ]);
  return outcome.ok;
}

/** How many orders the project holds: the sum of its count shards (one Query of at most 8 small items, strongly consistent). */
export async function countOrders(deps: Deps, projectId: string): Promise<number> {
  const shards = await orderCount.query(deps, { key: [projectId] }, { consistent: true });
  return shards.reduce((sum, shard) => sum + shard.count, 0);
}

/**
 * The ids of the orders on one page: skips `skip` list entries in the order asked (creation: the
 * list partition, strongly consistent; last change: its GSI1), takes `take`, and reads one more
 * to know whether any follow. Reads only that many entries (small items), never the rest.
 */
export async function listOrderIds(
  deps: Deps,
  projectId: string,
  read: { by: 'created' | 'updated'; ascending: boolean },
  skip: number,
  take: number,
): Promise<{ ids: string[]; hasMore: boolean }> {
  const page = await queryPage(
    (pageSize) =>
      read.by === 'updated'
        ? orderListEntry.queryPages(deps, { index: [projectId] }, { ascending: read.ascending, pageSize })
        : orderListEntry.queryPages(deps, { key: [projectId] }, { ascending: read.ascending, pageSize, consistent: true }),
    skip,
    take,
  );
  return { ids: page.items.map((entry) => entry.orderId), hasMore: page.hasMore };
}

/** The orders of `ids` (≤ 100, strongly consistent), in that order. */
export async function getOrders(deps: Deps, projectId: string, ids: string[]): Promise<Order[]> {
  return getInOrder(deps, orderEntity, projectId, ids, 'orders');
}
