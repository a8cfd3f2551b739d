import { deleteAll, putAll } from '../db/batch-write.js';
import {
  collectionMember,
  product as productEntity,
  productCollection,
  productCollectionCounter,
  productCounter,
  sku as skuEntity,
  skuRef,
} from '../db/entities.js';
import { queryPage } from '../db/query-page.js';
import { transact, type TransactItem } from '../db/transact.js';
import type { StoredProduct, StoredSku } from '../products/product.js';
import type { Runtime } from '../runtime.js';
import { type CollectionMember, MAX_COLLECTIONS_PER_PROJECT, type ProductCollection } from './product-collection.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

export { projectCollections } from './membership.js';

/** The collection by id, read consistently; null if none. */
export function getCollection(deps: Deps, projectId: string, collectionId: string): Promise<ProductCollection | null> {
  return productCollection.get(deps, productCollection.key(projectId, collectionId));
}

/** How many collections the project has. */
export async function countCollections(deps: Deps, projectId: string): Promise<number> {
  return (await productCollectionCounter.get(deps, productCollectionCounter.key(projectId)))?.count ?? 0;
}

/** Adds `n` to the project's collection count; a rise holds only below the cap. */
function countItem(deps: Pick<Runtime, 'tableName'>, projectId: string, n: number): TransactItem {
  const capped = n > 0;
  return {
    Update: {
      TableName: deps.tableName,
      Key: productCollectionCounter.key(projectId),
      UpdateExpression: 'SET entity = :entity, v = :v ADD #count :n',
      ...(capped ? { ConditionExpression: 'attribute_not_exists(#count) OR #count < :cap' } : {}),
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: {
        ':entity': productCollectionCounter.name,
        ':v': productCollectionCounter.version,
        ':n': n,
        ...(capped ? { ':cap': MAX_COLLECTIONS_PER_PROJECT } : {}),
      },
    },
  };
}

/** Writes membership items (blind: each item's content is fixed by its key). */
export function putMembers(deps: Deps, projectId: string, members: readonly CollectionMember[]): Promise<void> {
  return putAll(
    deps,
    members.map((m) => collectionMember.toItem(m, projectId)),
  );
}

/** Deletes membership items of one collection by member id. */
export function deleteMembers(deps: Deps, projectId: string, collectionId: string, memberIds: readonly string[]): Promise<void> {
  return deleteAll(
    deps,
    memberIds.map((id) => collectionMember.key(projectId, collectionId, id)),
  );
}

/** Writes a new collection and counts it, in one transaction; 'full' when the project has MAX_COLLECTIONS_PER_PROJECT. */
export async function insertCollection(deps: Deps, projectId: string, c: ProductCollection): Promise<'ok' | 'full' | 'conflict'> {
  const outcome = await transact(deps, [countItem(deps, projectId, 1), productCollection.putIfAbsent(deps, c, projectId)]);
  if (outcome.ok) return 'ok';
  if ('failed' in outcome && outcome.failed.includes(0)) return 'full';
  if ('failed' in outcome) throw new Error(`Collection ${c.id} could not be written: its id is taken`);
  return 'conflict';
}

/** Replaces an existing collection's item; false when it is gone. */
export async function replaceCollection(deps: Deps, projectId: string, c: ProductCollection): Promise<boolean | 'conflict'> {
  const outcome = await transact(deps, [
    { Put: { TableName: deps.tableName, Item: productCollection.toItem(c, projectId), ConditionExpression: 'attribute_exists(PK)' } },
  ]);
  if (outcome.ok) return true;
  return 'failed' in outcome ? false : 'conflict';
}

/** Deletes the collection and uncounts it; false when it was gone already. */
export async function removeCollection(deps: Deps, projectId: string, collectionId: string): Promise<boolean | 'conflict'> {
  const outcome = await transact(deps, [
    { Delete: { TableName: deps.tableName, Key: productCollection.key(projectId, collectionId), ConditionExpression: 'attribute_exists(PK)' } },
    countItem(deps, projectId, -1),
  ]);
  if (outcome.ok) return true;
  return 'failed' in outcome ? false : 'conflict';
}

/** Every member of a collection (a STATIC collection has at most MAX_STATIC_MEMBERS), in id order. */
export function allMembers(deps: Deps, projectId: string, collectionId: string): Promise<CollectionMember[]> {
  return collectionMember.query(deps, { key: [projectId, collectionId] }, { consistent: true });
}

/** A page of a collection's members in id order, and how many it has. */
export async function memberPage(
  deps: Deps,
  projectId: string,
  collectionId: string,
  skip: number,
  take: number,
): Promise<{ items: CollectionMember[]; total: number }> {
  const [page, total] = await Promise.all([
    queryPage((pageSize) => collectionMember.queryPages(deps, { key: [projectId, collectionId] }, { consistent: true, pageSize }), skip, take),
    collectionMember.count(deps, { key: [projectId, collectionId] }, { consistent: true }),
  ]);
  return { items: page.items, total };
}

/** The products by id (≤ 100); missing ones left out. */
export function getProducts(deps: Deps, projectId: string, ids: readonly string[]): Promise<StoredProduct[]> {
  return ids.length === 0
    ? Promise.resolve([])
    : productEntity.getMany(
        deps,
        ids.map((id) => productEntity.key(projectId, id)),
        'Too many concurrent reads of products',
      );
}

/** The SKUs by product and id (≤ 100); missing ones left out. */
export function getSkus(deps: Deps, projectId: string, refs: readonly { productId: string; id: string }[]): Promise<StoredSku[]> {
  return refs.length === 0
    ? Promise.resolve([])
    : skuEntity.getMany(
        deps,
        refs.map((r) => skuEntity.key(projectId, r.productId, r.id)),
        'Too many concurrent reads of SKUs',
      );
}

/** The product a SKU id belongs to; null if no such SKU. */
export async function skuProductId(deps: Deps, projectId: string, skuId: string): Promise<string | null> {
  return (await skuRef.get(deps, skuRef.key(projectId, skuId)))?.productId ?? null;
}

/** How many products the project has. */
export async function countProducts(deps: Deps, projectId: string): Promise<number> {
  return (await productCounter.get(deps, productCounter.key(projectId)))?.count ?? 0;
}

/** Every product of the project, page by page (GSI1, eventually consistent). */
export function productPages(deps: Deps, projectId: string): AsyncGenerator<StoredProduct[]> {
  return productEntity.queryPages(deps, { index: [projectId] }, { pageSize: 200 });
}
