import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { catalogGone, collectionMember, product, productCollection, productSource, sku, skuRef, skuSource } from '../db/entities.js';
import { isMemberAt } from '../product-collections/product-collection.js';
import type { Item, ItemKey } from '../db/entity.js';
import { itemKeyString, keyString } from '../db/key-string.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { type Catalog, emptyCatalog, type LineRef, memberKey } from './order-catalog.js';

/**
 * The item at a key, as a caller's reads so far have it: undefined when never asked, null when
 * asked and absent.
 */
export type Lookup = <T>(e: { fromItem(item: Item): T }, key: ItemKey) => T | null | undefined;

/**
 * One step of reading the catalog a request's lines need, by key only: what is known from the reads
 * so far (`lookup`), and the keys still to read. A line is looked up when it has no price, or `all`
 * (a rule of the request names a collection: membership needs the line's catalog ids); ids first (product, SKU pointer, source-id reservations), then what they point to,
 * then each line's memberships in `collections`; and beside them, whether the product or SKU ids of
 * lines that a rule targets by id (`targeted`) were deleted. Called again after every round until no key is left:
 * at most three rounds, each one BatchGetItem with the caller's other keys.
 */
export function walkCatalog(
  projectId: string,
  lines: readonly LineRef[],
  all: boolean,
  collections: readonly string[],
  lookup: Lookup,
  targeted: ReadonlySet<string> = new Set(),
): { keys: ItemKey[]; catalog: Catalog } {
  const c = emptyCatalog();
  const keys: ItemKey[] = [];
  const get = <T>(e: { fromItem(item: Item): T }, key: ItemKey): T | null | undefined => {
    const v = lookup(e, key);
    if (v === undefined) keys.push(key);
    return v;
  };
  const readProduct = (id: string) => {
    if (c.products.has(id)) return;
    const p = get(product, product.key(projectId, id));
    if (p !== undefined) c.products.set(id, p);
  };
  const readSku = (id: string, productId: string) => {
    const s = get(sku, sku.key(projectId, productId, id));
    if (s !== undefined) c.skus.set(id, s);
    readProduct(productId);
  };
  // The product and SKU ids whose memberships count: final once no pointer or reservation is left to read.
  const ids = new Set<string>();
  let settled = true;
  const see = (...xs: (string | null | undefined)[]) => {
    for (const x of xs) if (x) ids.add(x);
  };
  for (const r of lines) {
    for (const id of [r.productId, r.skuId]) if (id !== null && targeted.has(id) && get(catalogGone, catalogGone.key(projectId, id))) c.gone.add(id);
    see(r.productId, r.skuId);
    if (r.priced && !all) continue;
    if (r.skuId !== null) {
      const at = get(skuRef, skuRef.key(projectId, r.skuId));
      if (at === undefined) settled = false;
      if (at === null) c.skus.set(r.skuId, null);
      else if (at) {
        see(at.productId);
        readSku(r.skuId, at.productId);
      }
    } else if (r.skuSourceId !== null) {
      const at = get(skuSource, skuSource.key(projectId, r.skuSourceId));
      if (at === undefined) settled = false;
      else c.skuSources.set(r.skuSourceId, at?.skuId ?? null);
      if (at) {
        see(at.skuId, at.productId);
        readSku(at.skuId, at.productId);
      }
    }
    if (r.productId !== null) readProduct(r.productId);
    else if (r.productSourceId !== null && r.skuId === null && r.skuSourceId === null) {
      const at = get(productSource, productSource.key(projectId, r.productSourceId));
      if (at === undefined) settled = false;
      else c.productSources.set(r.productSourceId, at?.productId ?? null);
      if (at) {
        see(at.productId);
        readProduct(at.productId);
      }
    }
  }
  // Every membership of a collection is asked in one round with the collection item: the generation
  // read with them says which member items count, so a filter change is seen whole or not at all.
  if (settled) {
    for (const collectionId of collections) {
      const col = get(productCollection, productCollection.key(projectId, collectionId));
      for (const id of ids) {
        const m = get(collectionMember, collectionMember.key(projectId, collectionId, id));
        if (m !== undefined && col !== undefined) c.members.set(memberKey(collectionId, id), m !== null && isMemberAt(m, col?.gen ?? 0));
      }
    }
  }
  return { keys, catalog: c };
}

/**
 * The catalog the lines need (walkCatalog), and their memberships in `collections`, read in rounds
 * of consistent BatchGetItems (≤ 100 keys each) until nothing is left: for the order routes and an
 * order's earning, which read nothing else of the kind.
 */
export async function readCatalog(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
  projectId: string,
  lines: readonly LineRef[],
  collections: readonly string[] = [],
): Promise<Catalog> {
  const items = new Map<string, Item | null>();
  const lookup: Lookup = (e, key) => {
    const item = items.get(keyString(key));
    return item === undefined ? undefined : item === null ? null : e.fromItem(item);
  };
  for (;;) {
    const { keys, catalog } = walkCatalog(projectId, lines, false, collections, lookup);
    const fresh = [...new Map(keys.map((k) => [keyString(k), k])).entries()];
    if (fresh.length === 0) return catalog;
    for (const [id] of fresh) items.set(id, null);
    for (let i = 0; i < fresh.length; i += 100) {
      let pending: Item[] = fresh.slice(i, i + 100).map(([, k]) => ({ PK: k.PK, SK: k.SK }));
      await retryOnConflict('Too many concurrent reads of the catalog', async () => {
        const res = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [deps.tableName]: { Keys: pending, ConsistentRead: true } } }));
        for (const item of res.Responses?.[deps.tableName] ?? []) items.set(itemKeyString(item), item);
        pending = res.UnprocessedKeys?.[deps.tableName]?.Keys ?? [];
        return pending.length > 0 ? RETRY : undefined;
      });
    }
  }
}
