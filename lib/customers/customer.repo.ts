import { countAdd } from '../db/counters.js';
import { customerActivity, customer as customerEntity, customerCount, customerListEntry, customerRedemptionSummary, customerSourceId } from '../db/entities.js';
import type { Item, ItemKey } from '../db/entity.js';
import { getInOrder, queryPage } from '../db/query-page.js';
import { RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Customer, CustomerRedemptionSummary } from './customer.js';
import { CUSTOMERS_WITHOUT_SOURCE_ID, countShardOf, viewsOf } from './customer-views.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A customer by id (strongly consistent); null if none. */
export function getCustomer(deps: Deps, projectId: string, customerId: string): Promise<Customer | null> {
  return customerEntity.get(deps, customerEntity.key(projectId, customerId));
}

/** A customer's redemption counters ({} before any redemption). */
export async function getRedemptionSummary(deps: Deps, projectId: string, customerId: string): Promise<CustomerRedemptionSummary> {
  return (await customerRedemptionSummary.get(deps, customerRedemptionSummary.key(projectId, customerId))) ?? {};
}

/** The id of the customer with this source id (strongly consistent); null if none. */
export async function getCustomerIdBySourceId(deps: Deps, projectId: string, sourceId: string): Promise<string | null> {
  return (await customerSourceId.get(deps, customerSourceId.key(projectId, sourceId)))?.customerId ?? null;
}

const put = (deps: Deps, Item: Item, ConditionExpression?: string, values?: Item): TransactItem => ({
  Put: { TableName: deps.tableName, Item, ...(ConditionExpression ? { ConditionExpression } : {}), ...(values ? { ExpressionAttributeValues: values } : {}) },
});

const remove = (deps: Deps, Key: ItemKey): TransactItem => ({ Delete: { TableName: deps.tableName, Key } });

/** Adds `n` (±1) to the customer's shard of a view's count; the first add creates the shard. */
function count(deps: Deps, projectId: string, view: string, customerId: string, n: number): TransactItem {
  return countAdd(deps, customerCount, customerCount.key(projectId, view, countShardOf(customerId)), n);
}

const entryOf = (c: Customer, view: string) =>
  customerListEntry.toItem({ view, customerId: c.id, createdAt: c.createdAt, updatedAt: c.updatedAt }, c.projectId);

/**
 * The list items of a customer going from `before` (null: not listed yet) to `after` (null:
 * deleted): its entry in each view it is in afterwards (rewritten, as the change time in GSI1 moves),
 * the removal of entries of views it left, and ±1 on the count of each view it joined or left.
 */
function listItems(deps: Deps, before: Customer | null, after: Customer | null): TransactItem[] {
  const was = before?.listed ? viewsOf(before) : [];
  const is = after ? viewsOf(after) : [];
  const c = (after ?? before) as Customer;
  const items: TransactItem[] = [];
  for (const view of is) items.push(put(deps, entryOf(c, view)));
  for (const view of was) if (!is.includes(view)) items.push(remove(deps, customerListEntry.key(c.projectId, view, c.createdAt, c.id)));
  for (const view of is) if (!was.includes(view)) items.push(count(deps, c.projectId, view, c.id, 1));
  for (const view of was) if (!is.includes(view)) items.push(count(deps, c.projectId, view, c.id, -1));
  return items;
}

/** The customer's activity record of a write that left it as `c` (lib/activity/activity.ts); `was`: its segments before (null: created). */
const activityItem = (deps: Deps, id: string, c: Customer, was: string[] | null) =>
  put(deps, customerActivity.toItem({ id, projectId: c.projectId, customerId: c.id, createdAt: c.updatedAt ?? c.createdAt, customer: c, was }));

/** The source id item of a customer, with its place in the source id order. */
const sourceIdItem = (c: Customer & { sourceId: string }) => customerSourceId.toItem({ customerId: c.id }, c.projectId, c.sourceId);

/** The condition that the stored customer is the one `read` (its revision; items from before revisions have none). */
function unchangedSince(read: Customer): { ConditionExpression: string; ExpressionAttributeValues: Item } {
  return {
    ConditionExpression: read.revision === 0 ? 'attribute_exists(PK) AND (attribute_not_exists(revision) OR revision = :rev)' : 'revision = :rev',
    ExpressionAttributeValues: { ':rev': read.revision },
  };
}

/**
 * The writes of a new customer: the claim of its source id first (when it has one, put if absent),
 * the customer (put if absent), its list entries and counts, and its activity (`activityId`).
 */
export function newCustomerItems(deps: Deps, customer: Customer, activityId: string): TransactItem[] {
  const sourceId = customer.sourceId;
  return [
    ...(sourceId !== null ? [put(deps, sourceIdItem({ ...customer, sourceId }), 'attribute_not_exists(PK)')] : []),
    put(deps, customerEntity.toItem(customer), 'attribute_not_exists(PK)'),
    ...listItems(deps, null, customer),
    activityItem(deps, activityId, customer, null),
  ];
}

/**
 * Writes a new customer, claims its source id (when it has one), lists it (entries and counts)
 * and records its activity (`activityId`: created, segments entered), in one transaction.
 * @returns false when the source id is already claimed (by a concurrent writer): nothing is written.
 */
export function insertCustomer(deps: Deps, customer: Customer, activityId: string): Promise<boolean> {
  const sourceId = customer.sourceId;
  const items = newCustomerItems(deps, customer, activityId);
  return retryOnConflict(`Too many concurrent writes of customer ${sourceId ?? customer.id}`, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return true;
    if (!('failed' in outcome)) return RETRY;
    if (sourceId !== null && outcome.failed.includes(0)) return false;
    throw new Error(`Customer id ${customer.id} is already taken`);
  });
}

/**
 * Replaces the customer `read` with `next` (same id, revision one higher), moving its list
 * entries and counts along and recording its activity (`activityId`: updated, segments entered
 * and left), in one transaction that holds only if the stored customer is still `read`. A customer
 * not listed yet gets its entries, counts and source id order entry here.
 * @returns false when the customer changed or went meanwhile (nothing is written): read it again.
 */
export async function replaceCustomer(deps: Deps, read: Customer, next: Customer, activityId: string): Promise<boolean> {
  const items: TransactItem[] = [{ Put: { TableName: deps.tableName, Item: customerEntity.toItem(next), ...unchangedSince(read) } }];
  if (!read.listed && next.sourceId !== null) {
    items.push(put(deps, sourceIdItem({ ...next, sourceId: next.sourceId }), 'customerId = :id', { ':id': next.id }));
  }
  items.push(...listItems(deps, read, next), activityItem(deps, activityId, next, read.segmentIds ?? []));
  const outcome = await transact(deps, items);
  if (outcome.ok) return true;
  if ('failed' in outcome && !outcome.failed.includes(0)) throw new Error(`The source id item of customer ${next.id} names another customer`);
  return false;
}

/**
 * Deletes a customer, frees its source id and takes it off every list, in one transaction that
 * holds only if the stored customer is still the one `read` and the source id item still names it.
 * @returns false when the customer changed or went meanwhile (nothing is written): read it again.
 */
export async function deleteCustomer(deps: Deps, read: Customer): Promise<boolean> {
  const items = customerDeletionItems(deps, read);
  const outcome = await transact(deps, items);
  if (outcome.ok) return true;
  if ('failed' in outcome && !outcome.failed.includes(0)) throw new Error(`The source id item of customer ${read.id} names another customer`);
  return false;
}

/**
 * The writes that delete the customer `read` (first, conditioned on its revision), free its source
 * id and take it off every list; the permanent deletion joins its own items to them.
 */
export function customerDeletionItems(deps: Deps, read: Customer): TransactItem[] {
  const items: TransactItem[] = [{ Delete: { TableName: deps.tableName, Key: customerEntity.key(read.projectId, read.id), ...unchangedSince(read) } }];
  if (read.sourceId !== null) {
    items.push({
      Delete: {
        TableName: deps.tableName,
        Key: customerSourceId.key(read.projectId, read.sourceId),
        ConditionExpression: 'customerId = :id',
        ExpressionAttributeValues: { ':id': read.id },
      },
    });
  }
  items.push(...listItems(deps, read, null));
  return items;
}

/**
 * How many customers a view holds: the sum of its count shards, one Query of at most
 * COUNT_SHARDS small items (strongly consistent).
 */
export async function countCustomers(deps: Deps, projectId: string, view: string): Promise<number> {
  const shards = await customerCount.query(deps, { key: [projectId, view] }, { consistent: true });
  return shards.reduce((sum, shard) => sum + shard.count, 0);
}

/** Which order a page of a view is read in, and the sort key range it is read from (both ends included). */
export interface ViewRead {
  view: string;
  /** `created`: the view's partition; `updated`: its GSI1 (last change); `source_id`: the source id index (view ALL only). */
  by: 'created' | 'updated' | 'source_id';
  ascending: boolean;
  range?: { from?: string; to?: string };
}

/**
 * The pages of the source id order: the source id index, and the customers without a source id
 * (their view, by creation) last when ascending and first when descending, as SQL sorts nulls.
 * The second source is queried only once the first is exhausted, so a page still reads at most
 * `want` entries more than it keeps.
 */
async function* bySourceId(deps: Deps, projectId: string, ascending: boolean, want: number): AsyncGenerator<{ customerId: string }[]> {
  const indexed = () => customerSourceId.queryPages(deps, { index: [projectId] }, { ascending, pageSize: want });
  const anonymous = () =>
    customerListEntry.queryPages(deps, { key: [projectId, CUSTOMERS_WITHOUT_SOURCE_ID] }, { ascending, pageSize: want, consistent: true });
  for (const source of ascending ? [indexed, anonymous] : [anonymous, indexed]) yield* source();
}

/**
 * The ids of the customers on one page of a view: skips `skip` entries in the view's order and
 * range, takes `take`, and reads one more to know whether any follow. Reads only that many
 * entries (small items), never the rest of the view.
 */
export async function listCustomerIds(deps: Deps, projectId: string, read: ViewRead, skip: number, take: number): Promise<{ ids: string[]; hasMore: boolean }> {
  const range = read.range ? { sortRange: read.range } : {};
  const page = await queryPage<{ customerId: string }>(
    (pageSize) =>
      read.by === 'source_id'
        ? bySourceId(deps, projectId, read.ascending, pageSize)
        : read.by === 'updated'
          ? customerListEntry.queryPages(deps, { index: [projectId, read.view] }, { ascending: read.ascending, pageSize, ...range })
          : customerListEntry.queryPages(deps, { key: [projectId, read.view] }, { ascending: read.ascending, pageSize, ...range, consistent: true }),
    skip,
    take,
  );
  return { ids: page.items.map((entry) => entry.customerId), hasMore: page.hasMore };
}

/** The customers of `ids` (≤ 100, strongly consistent), in that order; ids whose customer is gone meanwhile are left out. */
export async function getCustomers(deps: Deps, projectId: string, ids: string[]): Promise<Customer[]> {
  return getInOrder(deps, customerEntity, projectId, ids, 'customers');
}
