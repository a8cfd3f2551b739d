import { RETRY, retryOnConflict } from '../db/transact.js';
import { InvalidPayloadError, NotFoundError } from '../errors.js';
import { type Product, plainProduct, plainSku, type Sku } from '../products/product.js';
import type { Runtime } from '../runtime.js';
import { matchesCollectionFilter } from './collection-filter.js';
import {
  type CollectionFilter,
  type CollectionMember,
  isMemberAt,
  MAX_COLLECTIONS_PER_PROJECT,
  MAX_SCANNED_PRODUCTS,
  type ProductCollection,
} from './product-collection.js';
import * as repo from './product-collection.repo.js';
import type {
  CreateProductCollectionBody,
  ListProductCollectionsQuery,
  ListProductsInCollectionQuery,
  PutProductCollectionBody,
} from './product-collection.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;
type ReadDeps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A collection with its members (STATIC: the products and SKUs its reply lists; AUTO_UPDATE: none listed). */
export interface CollectionWithMembers {
  collection: ProductCollection;
  members: CollectionMember[];
}

async function collectionOf(deps: ReadDeps, projectId: string, id: string): Promise<ProductCollection> {
  const found = await repo.getCollection(deps, projectId, id);
  if (!found) throw new NotFoundError('products_collection', id);
  return found;
}

const withMembers = async (deps: ReadDeps, projectId: string, c: ProductCollection): Promise<CollectionWithMembers> => ({
  collection: c,
  members: c.type === 'STATIC' ? await repo.allMembers(deps, projectId, c.id) : [],
});

/**
 * The products and SKUs a STATIC create names, each checked to exist (a SKU's `product_id`, when
 * given, must be its product). Repeats are one member.
 * @throws NotFoundError naming the first missing one.
 */
async function staticMembers(
  deps: ReadDeps,
  projectId: string,
  collectionId: string,
  picked: { id: string; object: 'product' | 'sku'; product_id?: string | undefined }[],
  now: string,
): Promise<CollectionMember[]> {
  const unique = [...new Map(picked.map((p) => [`${p.object}:${p.id}`, p])).values()];
  const productIds = unique.filter((p) => p.object === 'product').map((p) => p.id);
  const skus = unique.filter((p) => p.object === 'sku');
  const skuParents = await Promise.all(skus.map((s) => repo.skuProductId(deps, projectId, s.id)));
  const products = new Set((await repo.getProducts(deps, projectId, productIds)).map((p) => p.id));
  const missingProduct = productIds.find((id) => !products.has(id));
  if (missingProduct !== undefined) throw new NotFoundError('product', missingProduct);
  const members: CollectionMember[] = productIds.map((id) => ({ collectionId, id, object: 'product', productId: id, createdAt: now }));
  for (const [i, s] of skus.entries()) {
    const parent = skuParents[i];
    if (!parent || (s.product_id !== undefined && s.product_id !== parent)) throw new NotFoundError('sku', s.id);
    members.push({ collectionId, id: s.id, object: 'sku', productId: parent, createdAt: now });
  }
  return members;
}

/**
 * The project's products that match a filter: a scan of its products, refused beyond
 * MAX_SCANNED_PRODUCTS (a create or filter change reads them all within one request).
 * @throws InvalidPayloadError.
 */
async function matchingProducts(deps: ReadDeps, projectId: string, filter: CollectionFilter): Promise<Product[]> {
  const count = await repo.countProducts(deps, projectId);
  if (count > MAX_SCANNED_PRODUCTS) {
    throw new InvalidPayloadError(
      `An AUTO_UPDATE collection is filled from at most ${MAX_SCANNED_PRODUCTS} products when its filter is set; this project has ${count}`,
    );
  }
  const out: Product[] = [];
  for await (const page of repo.productPages(deps, projectId)) {
    for (const p of page) if (matchesCollectionFilter(filter, plainProduct(p))) out.push(plainProduct(p));
  }
  return out;
}

const autoMember = (collectionId: string, p: Product, now: string): CollectionMember => ({
  collectionId,
  id: p.id,
  object: 'product',
  productId: p.id,
  createdAt: now,
});

const tooMany = () => new InvalidPayloadError(`A project has at most ${MAX_COLLECTIONS_PER_PROJECT} product collections; delete one before creating another`);

/**
 * POST /v1/product-collections. Members are written first, under the new id, then the collection
 * with its count: a create stopped between leaves only items no collection names.
 * @throws NotFoundError (a STATIC product or SKU), InvalidPayloadError (cap, scan bound), ConflictRetryError.
 */
export async function createProductCollection(deps: Deps, projectId: string, body: CreateProductCollectionBody): Promise<CollectionWithMembers> {
  // Refused before any member is written; the count's condition in the create's transaction is what holds under races.
  if ((await repo.countCollections(deps, projectId)) >= MAX_COLLECTIONS_PER_PROJECT) throw tooMany();
  const now = deps.clock.now().toISOString();
  const id = deps.ids.id('pc');
  const members =
    body.type === 'STATIC'
      ? await staticMembers(deps, projectId, id, body.products, now)
      : (await matchingProducts(deps, projectId, body.filter)).map((p) => autoMember(id, p, now));
  const collection: ProductCollection = { id, name: body.name, type: body.type, filter: body.type === 'AUTO_UPDATE' ? body.filter : null, createdAt: now };
  await repo.putMembers(deps, projectId, members);
  await retryOnConflict(`Too many concurrent writes of collections of project ${projectId}`, async () => {
    const outcome = await repo.insertCollection(deps, projectId, collection);
    if (outcome === 'full') throw tooMany();
    return outcome === 'ok' ? undefined : RETRY;
  });
  return { collection, members: body.type === 'STATIC' ? members.sort((a, b) => a.id.localeCompare(b.id)) : [] };
}

/** One page of collections and how many the project has. */
export interface CollectionPage {
  collections: CollectionWithMembers[];
  total: number;
}

/** GET /v1/product-collections: the project's collections (all read: at most MAX_COLLECTIONS_PER_PROJECT) by creation. */
export async function listProductCollections(deps: ReadDeps, projectId: string, q: ListProductCollectionsQuery): Promise<CollectionPage> {
  const all = (await repo.projectCollections(deps, projectId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  if (q.order === '-created_at') all.reverse();
  const skip = (q.page - 1) * q.limit;
  const page = all.slice(skip, skip + q.limit);
  return { collections: await Promise.all(page.map((c) => withMembers(deps, projectId, c))), total: all.length };
}

/** GET /v1/product-collections/{productCollectionId}. @throws NotFoundError. */
export async function getProductCollection(deps: ReadDeps, projectId: string, id: string): Promise<CollectionWithMembers> {
  return withMembers(deps, projectId, await collectionOf(deps, projectId, id));
}

/**
 * PUT /v1/product-collections/{productCollectionId}: a new name; an AUTO_UPDATE collection's new
 * filter refills it (the products that match join, the others leave).
 * @throws NotFoundError, InvalidPayloadError (a filter for a STATIC collection; scan bound), ConflictRetryError.
 */
export async function putProductCollection(deps: Deps, projectId: string, id: string, body: PutProductCollectionBody): Promise<CollectionWithMembers> {
  const read = await collectionOf(deps, projectId, id);
  if (body.filter !== undefined && read.type === 'STATIC') {
    throw new InvalidPayloadError('A STATIC collection has no filter; its products are picked by id');
  }
  const gen = read.gen ?? 0;
  const next: ProductCollection = { ...read, name: body.name ?? read.name, filter: body.filter ?? read.filter };
  let leaving: string[] = [];
  if (body.filter !== undefined) {
    // The next generation is marked beside the current one (joiners `since`, leavers `until`), then
    // the collection's `gen` moves in one write: a validation reads the generation with the member
    // items, so it sees the old membership whole or the new one whole.
    next.gen = gen + 1;
    const now = deps.clock.now().toISOString();
    const [matching, current] = await Promise.all([matchingProducts(deps, projectId, body.filter), repo.allMembers(deps, projectId, id)]);
    const want = new Set(matching.map((p) => p.id));
    const members = new Map(current.filter((m) => isMemberAt(m, gen)).map((m) => [m.id, m]));
    leaving = [...members.keys()].filter((m) => !want.has(m));
    await repo.deleteMembers(
      deps,
      projectId,
      id,
      current.filter((m) => !members.has(m.id) && !want.has(m.id)).map((m) => m.id),
    );
    await repo.putMembers(deps, projectId, [
      ...matching.map((p) => {
        const m = members.get(p.id);
        return m ? { ...m, until: undefined } : { ...autoMember(id, p, now), since: gen + 1 };
      }),
      ...leaving.map((m) => ({ ...(members.get(m) as CollectionMember), until: gen + 1 })),
    ]);
  }
  await retryOnConflict(`Too many concurrent writes of collection ${id}`, async () => {
    const outcome = await repo.replaceCollection(deps, projectId, next);
    if (outcome === false) throw new NotFoundError('products_collection', id);
    return outcome === true ? undefined : RETRY;
  });
  // The leavers' items go once the new generation, which does not count them, is the collection's.
  await repo.deleteMembers(deps, projectId, id, leaving);
  return withMembers(deps, projectId, next);
}

/**
 * DELETE /v1/product-collections/{productCollectionId}: the collection, then its membership items.
 * @throws NotFoundError (also to all but one of concurrent deletes), ConflictRetryError.
 */
export async function deleteProductCollection(deps: ReadDeps, projectId: string, id: string): Promise<void> {
  await collectionOf(deps, projectId, id);
  await retryOnConflict(`Too many concurrent writes of collection ${id}`, async () => {
    const outcome = await repo.removeCollection(deps, projectId, id);
    if (outcome === false) throw new NotFoundError('products_collection', id);
    return outcome === true ? undefined : RETRY;
  });
  const members = await repo.allMembers(deps, projectId, id);
  await repo.deleteMembers(
    deps,
    projectId,
    id,
    members.map((m) => m.id),
  );
}

/** One entry of a collection's product list: a product, or a SKU with its product. */
export type CollectionEntry = { object: 'product'; product: Product } | { object: 'sku'; sku: Sku; product: Product };

/** One page of a collection's products and SKUs, and how many members it has. */
export interface CollectionEntryPage {
  entries: CollectionEntry[];
  total: number;
}

/**
 * GET /v1/product-collections/{productCollectionId}/products: a page of the collection's members in
 * id order, read from its partition (never the catalog), with their products and SKUs (two
 * BatchGetItems). A member whose product or SKU went meanwhile is left out.
 * @throws NotFoundError.
 */
export async function listProductsInCollection(deps: ReadDeps, projectId: string, id: string, q: ListProductsInCollectionQuery): Promise<CollectionEntryPage> {
  const collection = await collectionOf(deps, projectId, id);
  const page = await repo.memberPage(deps, projectId, id, (q.page - 1) * q.limit, q.limit);
  // During a filter change, the next generation's joiners are not members yet.
  const items = page.items.filter((m) => isMemberAt(m, collection.gen ?? 0));
  const total = page.total;
  const productIds = [...new Set(items.map((m) => m.productId))];
  const skuRefs = items.filter((m) => m.object === 'sku').map((m) => ({ productId: m.productId, id: m.id }));
  const [products, skus] = await Promise.all([repo.getProducts(deps, projectId, productIds), repo.getSkus(deps, projectId, skuRefs)]);
  const productById = new Map(products.map((p) => [p.id, plainProduct(p)]));
  const skuById = new Map(skus.map((s) => [s.id, plainSku(s)]));
  const entries = items.flatMap((m): CollectionEntry[] => {
    const product = productById.get(m.productId);
    if (!product) return [];
    if (m.object === 'product') return [{ object: 'product', product }];
    const sku = skuById.get(m.id);
    return sku ? [{ object: 'sku', sku, product }] : [];
  });
  return { entries, total };
}
