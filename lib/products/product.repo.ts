import { binEntryPut } from '../bin/bin.repo.js';
import type { BinEntry } from '../bin/bin-entry.js';
import { countAdd } from '../db/counters.js';
import { catalogGone, product as productEntity, productCounter, productSource, SKU_SORT_PREFIX, sku as skuEntity, skuRef, skuSource } from '../db/entities.js';
import { queryPage } from '../db/query-page.js';
import { transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { MAX_SKUS_PER_PRODUCT, type Sku, type StoredProduct, type StoredSku } from './product.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;
type TableDeps = Pick<Runtime, 'tableName'>;

/** What a catalog write came to: written; the source id is taken; the item changed or went (re-read); a lost race (retry). */
export type CatalogWriteOutcome = 'ok' | 'source_taken' | 'changed' | 'conflict';

/** The product by id, read consistently; null if none. */
export function getProduct(deps: Deps, projectId: string, productId: string): Promise<StoredProduct | null> {
  return productEntity.get(deps, productEntity.key(projectId, productId));
}

/** Every SKU of a product (at most MAX_SKUS_PER_PRODUCT), read consistently from its partition, in id order. */
export function getProductSkus(deps: Deps, projectId: string, productId: string): Promise<StoredSku[]> {
  return skuEntity.query(deps, { key: [projectId, productId] }, { consistent: true, sortBeginsWith: SKU_SORT_PREFIX });
}

/**
 * The product a path names: by id, else by `source_id`. The id's item and the source id's
 * reservation are read at once; a product found by id wins.
 */
export async function findProduct(deps: Deps, projectId: string, ref: string): Promise<StoredProduct | null> {
  const [byId, source] = await Promise.all([getProduct(deps, projectId, ref), productSource.get(deps, productSource.key(projectId, ref))]);
  if (byId) return byId;
  return source ? getProduct(deps, projectId, source.productId) : null;
}

/** The product's id that a `source_id` is reserved for; null if none. */
export async function getProductIdBySource(deps: Deps, projectId: string, sourceId: string): Promise<string | null> {
  return (await productSource.get(deps, productSource.key(projectId, sourceId)))?.productId ?? null;
}

/** How many products the project has. */
export async function countProducts(deps: Deps, projectId: string): Promise<number> {
  return (await productCounter.get(deps, productCounter.key(projectId)))?.count ?? 0;
}

/** Creation bounds of a list (both included). */
export interface CreatedBounds {
  from?: string | undefined;
  to?: string | undefined;
}

/** GSI1 sort key range of the bounds: keys are `<created_at>#<id>`, so the upper bound takes every id of its instant. */
const rangeOf = (b: CreatedBounds) =>
  b.from === undefined && b.to === undefined ? {} : { sortRange: { ...(b.from ? { from: b.from } : {}), ...(b.to ? { to: `${b.to}#\uffff` } : {}) } };

/**
 * A page of the project's products by creation: one Query of GSI1 reading `skip + take + 1` items
 * at most. GSI1 is eventually consistent: a product made a moment ago may be missing.
 */
export function listProducts(
  deps: Deps,
  projectId: string,
  o: { skip: number; take: number; ascending: boolean; bounds: CreatedBounds },
): Promise<{ items: StoredProduct[]; hasMore: boolean }> {
  return queryPage(
    (pageSize) => productEntity.queryPages(deps, { index: [projectId] }, { ascending: o.ascending, pageSize, ...rangeOf(o.bounds) }),
    o.skip,
    o.take,
  );
}

/** How many of the project's products were created within the bounds (a COUNT Query of GSI1's range). */
export function countProductsWithin(deps: Deps, projectId: string, bounds: CreatedBounds): Promise<number> {
  return productEntity.count(deps, { index: [projectId] }, rangeOf(bounds));
}

/** A Put of the product's item holding only while it is still at `read`'s revision (or, with no `read`, where none exists). */
function productPut(deps: TableDeps, projectId: string, next: StoredProduct, read: StoredProduct | null): TransactItem {
  return {
    Put: {
      TableName: deps.tableName,
      Item: productEntity.toItem(next, projectId),
      ...(read
        ? { ConditionExpression: 'revision = :r', ExpressionAttributeValues: { ':r': read.revision } }
        : { ConditionExpression: 'attribute_not_exists(PK)' }),
    },
  };
}

/** The writes of a new product: its `source_id` reservation first (put if absent, when it has one), then the product (put if absent). */
export function newProductItems(deps: TableDeps, projectId: string, product: StoredProduct): TransactItem[] {
  return [
    ...(product.sourceId ? [productSource.putIfAbsent(deps, { productId: product.id }, projectId, product.sourceId)] : []),
    productPut(deps, projectId, product, null),
  ];
}

/** `delta` added to the project's product counter. */
export const productCounterAdd = (deps: TableDeps, projectId: string, delta: number): TransactItem =>
  countAdd(deps, productCounter, productCounter.key(projectId), delta);

/**
 * Writes a new product, its `source_id` reservation and +1 on the project's product counter, in
 * one transaction, with `extra` (its collection memberships). 'source_taken' when a concurrent request reserved the source id first.
 */
export async function insertProduct(deps: Deps, projectId: string, product: StoredProduct, extra: TransactItem[] = []): Promise<CatalogWriteOutcome> {
  const items: TransactItem[] = [...newProductItems(deps, projectId, product), productCounterAdd(deps, projectId, 1), ...extra];
  const outcome = await transact(deps, items);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (product.sourceId && outcome.failed.includes(0)) return 'source_taken';
  throw new Error(`Product ${product.id} could not be written: its id is taken`);
}

/** Replaces the product `read` with `next` (same id, source id and SKUs), if it is still as read; `extra` (its collection memberships) in the same transaction. */
export async function replaceProduct(
  deps: Deps,
  projectId: string,
  read: StoredProduct,
  next: StoredProduct,
  extra: TransactItem[] = [],
): Promise<CatalogWriteOutcome> {
  const outcome = await transact(deps, [productPut(deps, projectId, { ...next, revision: read.revision + 1, skuCount: read.skuCount }, read), ...extra]);
  if (outcome.ok) return 'ok';
  return 'failed' in outcome ? 'changed' : 'conflict';
}

/** Adds `delta` SKUs to the product's count and raises its revision; a rise holds only below the cap and while the product exists. */
function productSkuCount(deps: TableDeps, projectId: string, productId: string, delta: number, revision?: number): TransactItem {
  const conditions = ['attribute_exists(PK)', ...(delta > 0 ? ['skuCount < :cap'] : []), ...(revision !== undefined ? ['revision = :r'] : [])];
  return {
    Update: {
      TableName: deps.tableName,
      Key: productEntity.key(projectId, productId),
      UpdateExpression: 'ADD skuCount :d, revision :one',
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeValues: {
        ':d': delta,
        ':one': 1,
        ...(delta > 0 ? { ':cap': MAX_SKUS_PER_PRODUCT } : {}),
        ...(revision !== undefined ? { ':r': revision } : {}),
      },
    },
  };
}

/**
 * Writes a new SKU, its id pointer and `source_id` reservation, and +1 on its product's SKU count,
 * in one transaction. 'changed' when the product is gone or has MAX_SKUS_PER_PRODUCT SKUs (re-read), 'source_taken' when a concurrent request reserved the source id first.
 */
export async function insertSku(deps: Deps, projectId: string, sku: StoredSku): Promise<CatalogWriteOutcome> {
  const items: TransactItem[] = [
    productSkuCount(deps, projectId, sku.productId, 1),
    skuEntity.putIfAbsent(deps, sku, projectId),
    skuRef.putIfAbsent(deps, { productId: sku.productId }, projectId, sku.id),
    ...(sku.sourceId ? [skuSource.putIfAbsent(deps, { skuId: sku.id, productId: sku.productId }, projectId, sku.sourceId)] : []),
  ];
  const outcome = await transact(deps, items);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (sku.sourceId && outcome.failed.includes(3)) return 'source_taken';
  if (outcome.failed.includes(0)) return 'changed';
  throw new Error(`SKU ${sku.id} could not be written: its id is taken`);
}

/** Replaces the SKU `read` with `next` (same id, product and source id), if it is still as read. */
export async function replaceSku(deps: Deps, projectId: string, read: StoredSku, next: Sku): Promise<CatalogWriteOutcome> {
  const outcome = await transact(deps, [
    {
      Put: {
        TableName: deps.tableName,
        Item: skuEntity.toItem({ ...next, revision: read.revision + 1 }, projectId),
        ConditionExpression: 'revision = :r',
        ExpressionAttributeValues: { ':r': read.revision },
      },
    },
  ]);
  if (outcome.ok) return 'ok';
  return 'failed' in outcome ? 'changed' : 'conflict';
}

/** The deletes of one SKU (its item while still as read, its pointer, its source id) and its bin entry when it goes to the bin. */
function skuRemoval(deps: TableDeps, projectId: string, sku: StoredSku, bin: BinEntry | null): TransactItem[] {
  return [
    {
      Delete: {
        TableName: deps.tableName,
        Key: skuEntity.key(projectId, sku.productId, sku.id),
        ConditionExpression: 'revision = :r',
        ExpressionAttributeValues: { ':r': sku.revision },
      },
    },
    { Delete: { TableName: deps.tableName, Key: skuRef.key(projectId, sku.id) } },
    { Put: { TableName: deps.tableName, Item: catalogGone.toItem({ object: 'sku' }, projectId, sku.id) } },
    ...(sku.sourceId
      ? [
          {
            Delete: {
              TableName: deps.tableName,
              Key: skuSource.key(projectId, sku.sourceId),
              ConditionExpression: 'skuId = :id',
              ExpressionAttributeValues: { ':id': sku.id },
            },
          },
        ]
      : []),
    ...(bin ? [binEntryPut(deps, projectId, bin)] : []),
  ];
}

/** Deletes one SKU (if still as read), with its pointer and source id, −1 on its product's count, and its bin entry if given. */
export async function removeSku(deps: Deps, projectId: string, sku: StoredSku, bin: BinEntry | null): Promise<CatalogWriteOutcome> {
  const outcome = await transact(deps, [productSkuCount(deps, projectId, sku.productId, -1), ...skuRemoval(deps, projectId, sku, bin)]);
  if (outcome.ok) return 'ok';
  return 'failed' in outcome ? 'changed' : 'conflict';
}

/** SKUs removed per transaction when their product is deleted: five items each at most, with the product's own update. */
export const SKUS_PER_REMOVAL = 19;

/**
 * Deletes some SKUs of a product that is still at `product`'s revision, and lowers its count, in
 * one transaction (at most SKUS_PER_REMOVAL). 'changed' when the product changed meanwhile.
 */
export async function removeProductSkus(
  deps: Deps,
  projectId: string,
  product: StoredProduct,
  skus: { sku: StoredSku; bin: BinEntry | null }[],
): Promise<CatalogWriteOutcome> {
  const outcome = await transact(deps, [
    productSkuCount(deps, projectId, product.id, -skus.length, product.revision),
    ...skus.flatMap(({ sku, bin }) => skuRemoval(deps, projectId, sku, bin)),
  ]);
  if (outcome.ok) return 'ok';
  return 'failed' in outcome ? 'changed' : 'conflict';
}

/** Deletes a product that has no SKUs left (if still as read), frees its source id, uncounts it and puts its bin entry if given. */
export async function removeProduct(deps: Deps, projectId: string, product: StoredProduct, bin: BinEntry | null): Promise<CatalogWriteOutcome> {
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: deps.tableName,
        Key: productEntity.key(projectId, product.id),
        ConditionExpression: 'revision = :r',
        ExpressionAttributeValues: { ':r': product.revision },
      },
    },
    countAdd(deps, productCounter, productCounter.key(projectId), -1),
    { Put: { TableName: deps.tableName, Item: catalogGone.toItem({ object: 'product' }, projectId, product.id) } },
    ...(product.sourceId
      ? [
          {
            Delete: {
              TableName: deps.tableName,
              Key: productSource.key(projectId, product.sourceId),
              ConditionExpression: 'productId = :id',
              ExpressionAttributeValues: { ':id': product.id },
            },
          },
        ]
      : []),
    ...(bin ? [binEntryPut(deps, projectId, bin)] : []),
  ];
  const outcome = await transact(deps, items);
  if (outcome.ok) return 'ok';
  return 'failed' in outcome ? 'changed' : 'conflict';
}

/** The SKU at a pointer: its product's id, by the SKU's id; null if none. */
export async function getSkuProductId(deps: Deps, projectId: string, skuId: string): Promise<string | null> {
  return (await skuRef.get(deps, skuRef.key(projectId, skuId)))?.productId ?? null;
}

/** The SKU a `source_id` is reserved for (its id and product); null if none. */
export function getSkuBySource(deps: Deps, projectId: string, sourceId: string): Promise<{ skuId: string; productId: string } | null> {
  return skuSource.get(deps, skuSource.key(projectId, sourceId));
}

/** The SKU of a product by id, read consistently; null if none. */
export function getSku(deps: Deps, projectId: string, productId: string, skuId: string): Promise<StoredSku | null> {
  return skuEntity.get(deps, skuEntity.key(projectId, productId, skuId));
}
