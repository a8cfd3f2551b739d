import { deleteAll } from '../db/batch-write.js';
import { COLLECTION_SORT_PREFIX, collectionMember, productCollection } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Product } from '../products/product.js';
import type { Runtime } from '../runtime.js';
import { membershipChanges } from './collection-filter.js';
import type { CollectionFilter, CollectionMember, ProductCollection } from './product-collection.js';

/*
 * What product writes do to collections (imported by the product services: kept small). A product
 * write carries its AUTO_UPDATE memberships in its own transaction; deleting a product or SKU
 * removes its memberships before the item itself goes.
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Every collection of the project (at most MAX_COLLECTIONS_PER_PROJECT), read consistently from its one partition. */
export function projectCollections(deps: Deps, projectId: string): Promise<ProductCollection[]> {
  return productCollection.query(deps, { key: [projectId] }, { consistent: true, sortBeginsWith: COLLECTION_SORT_PREFIX });
}

/** A Put of a membership item (its content is fixed by its key: a repeat writes the same). */
export const memberPut = (deps: Pick<Runtime, 'tableName'>, projectId: string, m: CollectionMember): TransactItem => ({
  Put: { TableName: deps.tableName, Item: collectionMember.toItem(m, projectId) },
});

const memberDelete = (deps: Pick<Runtime, 'tableName'>, projectId: string, collectionId: string, memberId: string): TransactItem => ({
  Delete: { TableName: deps.tableName, Key: collectionMember.key(projectId, collectionId, memberId) },
});

/** A collection's filter, for the ones that follow product writes. */
export interface AutoCollection {
  id: string;
  filter: CollectionFilter;
}

/** The AUTO_UPDATE collections among the project's collections, with their filters. */
export const autoCollectionsOf = (collections: readonly ProductCollection[]): AutoCollection[] =>
  collections.flatMap((c) => (c.type === 'AUTO_UPDATE' && c.filter ? [{ id: c.id, filter: c.filter as CollectionFilter }] : []));

/** As autoMembershipWrites, from AUTO_UPDATE collections already read (a bulk chunk reads them once for its rows). */
export function membershipWritesAmong(
  deps: Pick<Runtime, 'tableName'>,
  projectId: string,
  autos: readonly AutoCollection[],
  before: Product | null,
  after: Product,
  now: string,
): TransactItem[] {
  if (autos.length === 0) return [];
  const { join, leave } = membershipChanges(autos, before, after);
  return [
    ...join.map((collectionId) => memberPut(deps, projectId, { collectionId, id: after.id, object: 'product', productId: after.id, createdAt: now })),
    ...leave.map((collectionId) => memberDelete(deps, projectId, collectionId, after.id)),
  ];
}

/**
 * The membership writes of a product write, for the product's transaction: a Put in every
 * AUTO_UPDATE collection whose filter the product now matches, a Delete in each it matched before
 * and no longer does (at most one item per collection).
 */
export async function autoMembershipWrites(deps: Deps, projectId: string, before: Product | null, after: Product, now: string): Promise<TransactItem[]> {
  return membershipWritesAmong(deps, projectId, autoCollectionsOf(await projectCollections(deps, projectId)), before, after, now);
}

/**
 * Removes products and SKUs (by id) from every collection of the project. Blind deletes, in batches:
 * a retry repeats them harmlessly. SKUs are only ever in STATIC collections.
 */
export async function leaveCollections(deps: Deps, projectId: string, productIds: readonly string[], skuIds: readonly string[]): Promise<void> {
  const collections = await projectCollections(deps, projectId);
  const keys = collections.flatMap((c) =>
    [...productIds, ...(c.type === 'STATIC' ? skuIds : [])].map((memberId) => collectionMember.key(projectId, c.id, memberId)),
  );
  if (keys.length > 0) await deleteAll(deps, keys);
}
