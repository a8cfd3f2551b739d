import { type BinEntry, binEntryId } from '../bin/bin-entry.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { DuplicateError, InvalidPayloadError, InvalidQueryParamsError, NotFoundError } from '../errors.js';
import { autoMembershipWrites, leaveCollections } from '../product-collections/membership.js';
import type { Runtime } from '../runtime.js';
import { enforceMetadata } from '../metadata-schemas/metadata-enforcement.js';
import { MAX_SKUS_PER_PRODUCT, type Product, plainProduct, plainSku, type ProductWithSkus, type Sku, type StoredProduct, type StoredSku } from './product.js';
import { toProductReply, toSkuReply } from './product.mapper.js';
import * as repo from './product.repo.js';
import type {
  CreateProductBody,
  CreateSkuBody,
  ListProductsQuery,
  ListSkusQuery,
  ProductFields,
  SkuFields,
  UpdateProductBody,
  UpdateSkuBody,
} from './product.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;
type ReadDeps = Pick<Runtime, 'ddb' | 'tableName'>;

const busy = (what: string) => `Too many concurrent writes of ${what}`;

/** A product's SKUs oldest first (their partition holds them in id order). */
const byCreation = (a: Sku, b: Sku): number => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/** The product a path or body names (id or `source_id`). @throws NotFoundError. */
async function productOf(deps: ReadDeps, projectId: string, ref: string): Promise<StoredProduct> {
  const found = await repo.findProduct(deps, projectId, ref);
  if (!found) throw new NotFoundError('product', ref);
  return found;
}

/** The SKU of `product` a path names (its id, or its `source_id`); null if the product has none such. */
async function findSkuOf(deps: ReadDeps, projectId: string, product: StoredProduct, ref: string): Promise<StoredSku | null> {
  const [byId, source] = await Promise.all([repo.getSku(deps, projectId, product.id, ref), repo.getSkuBySource(deps, projectId, ref)]);
  if (byId) return byId;
  return source && source.productId === product.id ? repo.getSku(deps, projectId, product.id, source.skuId) : null;
}

/** The product with the fields sent set (the others kept; `metadata` replaced as a whole). */
const withProductFields = (p: StoredProduct, f: ProductFields): StoredProduct => ({
  ...p,
  name: f.name ?? p.name,
  price: f.price ?? p.price,
  attributes: f.attributes ?? p.attributes,
  metadata: f.metadata ?? p.metadata,
  imageUrl: f.image_url ?? p.imageUrl,
});

/** The SKU with the fields sent set (the others kept; `attributes` and `metadata` replaced as wholes). */
const withSkuFields = (s: StoredSku, f: SkuFields): StoredSku => ({
  ...s,
  sku: f.sku ?? s.sku,
  price: f.price ?? s.price,
  currency: f.currency ?? s.currency,
  attributes: f.attributes ?? s.attributes,
  imageUrl: f.image_url ?? s.imageUrl,
  metadata: f.metadata ?? s.metadata,
});

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Sets `fields` on the product `read`. Nothing that differs: no write, and `updated_at` stays (so
 * concurrent identical upserts do not fight over the item).
 */
async function applyProductFields(deps: Deps, projectId: string, read: StoredProduct, fields: ProductFields): Promise<Product | typeof RETRY> {
  const next = withProductFields(read, fields);
  if (same(plainProduct(next), plainProduct(read))) return plainProduct(read);
  const written = { ...next, updatedAt: deps.clock.now().toISOString() };
  const memberships = await autoMembershipWrites(deps, projectId, plainProduct(read), plainProduct(written), written.updatedAt);
  return (await repo.replaceProduct(deps, projectId, read, written, memberships)) === 'ok' ? plainProduct(written) : RETRY;
}

/** As applyProductFields, for a SKU. */
async function applySkuFields(deps: Deps, projectId: string, read: StoredSku, fields: SkuFields): Promise<Sku | typeof RETRY> {
  const next = withSkuFields(read, fields);
  if (same(plainSku(next), plainSku(read))) return plainSku(read);
  const written = { ...next, updatedAt: deps.clock.now().toISOString() };
  return (await repo.replaceSku(deps, projectId, read, written)) === 'ok' ? plainSku(written) : RETRY;
}

/** A new product (`prod_…`) of `sourceId` with the fields sent, not written yet. */
export function newProduct(deps: Pick<Runtime, 'clock' | 'ids'>, sourceId: string | null, fields: ProductFields): StoredProduct {
  return withProductFields(
    {
      id: deps.ids.id('prod'),
      sourceId,
      name: null,
      price: null,
      attributes: [],
      metadata: {},
      imageUrl: null,
      createdAt: deps.clock.now().toISOString(),
      updatedAt: null,
      revision: 0,
      skuCount: 0,
    },
    fields,
  );
}

/**
 * POST /v1/products: the reference's upsert. `id` names an existing product, which gets the fields
 * sent (its `source_id` is then ignored); a `source_id` already reserved updates its product the
 * same way; otherwise a new product (`prod_…`) is made with the source id reserved. Concurrent
 * creates of one source id make one product: the losers of the reservation update the winner's.
 * @throws NotFoundError (an `id` naming no product), ConflictRetryError.
 */
export async function createProduct(deps: Deps & Pick<Runtime, 'metadataSchemaCache'>, projectId: string, body: CreateProductBody): Promise<Product> {
  // An upsert: metadata sent replaces the product's, none sent keeps it, so only what is sent is checked.
  await enforceMetadata(deps, projectId, 'product', body.metadata);
  const { id, source_id: sourceId, ...fields } = body;
  return retryOnConflict(busy(`products of project ${projectId}`), async () => {
    if (id !== undefined) {
      const read = await repo.getProduct(deps, projectId, id);
      if (!read) throw new NotFoundError('product', id);
      return applyProductFields(deps, projectId, read, fields);
    }
    if (sourceId !== undefined) {
      const existingId = await repo.getProductIdBySource(deps, projectId, sourceId);
      if (existingId) {
        const read = await repo.getProduct(deps, projectId, existingId);
        // A reservation without its product is being deleted with it: read again.
        return read ? applyProductFields(deps, projectId, read, fields) : RETRY;
      }
    }
    const product = newProduct(deps, sourceId ?? null, fields);
    const memberships = await autoMembershipWrites(deps, projectId, null, plainProduct(product), product.createdAt);
    return (await repo.insertProduct(deps, projectId, product, memberships)) === 'ok' ? plainProduct(product) : RETRY;
  });
}

/**
 * The most a page of GET /v1/products may weigh, as Lambda carries it (the body as an escaped JSON
 * string): 5 MiB of Lambda's 6 MB synchronous reply, the rest left for status and headers, as the
 * inline export download does. Every product carries all its SKUs, so a page of large products
 * could pass the limit; one product with MAX_SKUS_PER_PRODUCT SKUs of ordinary size stays far below it.
 */
export const MAX_LIST_REPLY_BYTES = 5 * 1024 * 1024;

/** One page of GET /v1/products (each product with its SKUs) and the number of products within the bounds. */
export interface ProductPage {
  products: { product: Product; skus: Sku[] }[];
  total: number;
}

/**
 * GET /v1/products: a page of the project's products by creation (oldest first unless
 * `order=-created_at`), within `start_date`/`end_date` (both included), each with its SKUs.
 * Reads the page's range of GSI1, then the SKUs of the products that have any (one Query each, in
 * parallel). `total` is the project's counter, or a COUNT of the bounded range.
 */
export async function listProducts(deps: ReadDeps, projectId: string, q: ListProductsQuery): Promise<ProductPage> {
  const bounds = { from: q.start_date, to: q.end_date };
  const bounded = q.start_date !== undefined || q.end_date !== undefined;
  // A start after the end bounds no instant: nothing to read (a Query's BETWEEN refuses such a range).
  if (q.start_date !== undefined && q.end_date !== undefined && q.start_date > q.end_date) return { products: [], total: 0 };
  const [page, total] = await Promise.all([
    repo.listProducts(deps, projectId, { skip: (q.page - 1) * q.limit, take: q.limit, ascending: q.order === 'created_at', bounds }),
    bounded ? repo.countProductsWithin(deps, projectId, bounds) : repo.countProducts(deps, projectId),
  ]);
  const products = await Promise.all(
    page.items.map(async (p) => ({
      product: plainProduct(p),
      skus: p.skuCount > 0 ? (await repo.getProductSkus(deps, projectId, p.id)).map(plainSku).sort(byCreation) : [],
    })),
  );
  const size = Buffer.byteLength(JSON.stringify(JSON.stringify(products.map(({ product, skus }) => toProductReply(product, skus)))));
  if (size > MAX_LIST_REPLY_BYTES) {
    throw new InvalidQueryParamsError(
      `These ${products.length} products and their SKUs make a reply over ${MAX_LIST_REPLY_BYTES} bytes; ask for a smaller limit (a page of one product always fits)`,
    );
  }
  return { products, total };
}

/**
 * GET /v1/products/{productId}: the product (by id or `source_id`) with every SKU, oldest first.
 * @throws NotFoundError.
 */
export async function getProduct(deps: ReadDeps, projectId: string, ref: string): Promise<ProductWithSkus> {
  const product = await productOf(deps, projectId, ref);
  const skus = product.skuCount > 0 ? await repo.getProductSkus(deps, projectId, product.id) : [];
  return { product, skus: skus.map(plainSku).sort(byCreation) };
}

/**
 * PUT /v1/products/{productId}: sets the fields sent; the others stay. Nothing that differs: no
 * write, and `updated_at` stays.
 * @throws NotFoundError, ConflictRetryError, MetadataValidationError.
 */
export async function updateProduct(
  deps: Deps & Pick<Runtime, 'metadataSchemaCache'>,
  projectId: string,
  ref: string,
  body: UpdateProductBody,
): Promise<Product> {
  await enforceMetadata(deps, projectId, 'product', body.metadata);
  return retryOnConflict(busy(`product ${ref}`), async () => applyProductFields(deps, projectId, await productOf(deps, projectId, ref), body));
}

/** A bin entry for a product or SKU, with its snapshot as the API showed it. */
function binEntryOf(
  deps: Pick<Runtime, 'clock'>,
  resource: { type: 'product' | 'sku'; id: string; name: string; parentId: string | null; snapshot: Record<string, unknown> },
): BinEntry {
  const now = deps.clock.now();
  return {
    id: binEntryId(now),
    createdAt: now.toISOString(),
    deletedByUserId: null,
    resourceId: resource.id,
    resourceType: resource.type,
    resourceName: resource.name,
    resourceParentId: resource.parentId,
    snapshot: resource.snapshot,
  };
}

const skuBinEntry = (deps: Pick<Runtime, 'clock'>, s: Sku): BinEntry =>
  binEntryOf(deps, { type: 'sku', id: s.id, name: s.sku ?? s.sourceId ?? s.id, parentId: s.productId, snapshot: { ...toSkuReply(s) } });

/**
 * DELETE /v1/products/{productId}: deletes the product and all its SKUs and frees their source
 * ids. Without `force` each goes to the bin: an entry for the product and one per SKU naming the
 * product as parent, each with its own snapshot (the product's leaves its SKUs out: a hundred SKUs
 * with their metadata would not fit in one item). SKUs go first, SKUS_PER_REMOVAL a
 * transaction with the product's count, the product last: a delete stopped halfway leaves the
 * product with fewer SKUs, and a retry finishes it.
 * @throws NotFoundError (also to all but one of concurrent deletes), ConflictRetryError.
 */
export async function deleteProduct(deps: Deps, projectId: string, ref: string, force: boolean): Promise<void> {
  const found = await productOf(deps, projectId, ref);
  // Out of its collections first: a delete stopped here leaves the product, and a retry repeats this.
  const skuIds = found.skuCount > 0 ? (await repo.getProductSkus(deps, projectId, found.id)).map((s) => s.id) : [];
  await leaveCollections(deps, projectId, [found.id], skuIds);
  await retryOnConflict(busy(`product ${found.id}`), async () => {
    const product = await repo.getProduct(deps, projectId, found.id);
    if (!product) throw new NotFoundError('product', ref);
    const skus = product.skuCount > 0 ? await repo.getProductSkus(deps, projectId, product.id) : [];
    if (skus.length > 0) {
      const batch = skus.slice(0, repo.SKUS_PER_REMOVAL).map((sku) => ({ sku, bin: force ? null : skuBinEntry(deps, sku) }));
      await repo.removeProductSkus(deps, projectId, product, batch);
      return RETRY;
    }
    const bin = force
      ? null
      : binEntryOf(deps, {
          type: 'product',
          id: product.id,
          name: product.name ?? product.sourceId ?? product.id,
          parentId: null,
          snapshot: { ...toProductReply(product) },
        });
    return (await repo.removeProduct(deps, projectId, product, bin)) === 'ok' ? undefined : RETRY;
  });
}

/**
 * GET /v1/skus/{skuId}: a SKU by id or `source_id`.
 * @throws NotFoundError.
 */
export async function getSku(deps: ReadDeps, projectId: string, ref: string): Promise<Sku> {
  const [productId, source] = await Promise.all([repo.getSkuProductId(deps, projectId, ref), repo.getSkuBySource(deps, projectId, ref)]);
  const found = productId
    ? await repo.getSku(deps, projectId, productId, ref)
    : source
      ? await repo.getSku(deps, projectId, source.productId, source.skuId)
      : null;
  if (!found) throw new NotFoundError('sku', ref);
  return plainSku(found);
}

/** One page of a product's SKUs and how many it has within the bounds. */
export interface SkuPage {
  skus: Sku[];
  total: number;
}

/**
 * GET /v1/products/{productId}/skus: a page of the product's SKUs (all of them are read: at most
 * MAX_SKUS_PER_PRODUCT), within the creation bounds, in the order asked (by creation, or by last
 * change with a never-changed SKU at its creation).
 * @throws NotFoundError (product).
 */
export async function listSKUsInProduct(deps: ReadDeps, projectId: string, ref: string, q: ListSkusQuery): Promise<SkuPage> {
  const product = await productOf(deps, projectId, ref);
  const all = product.skuCount > 0 ? (await repo.getProductSkus(deps, projectId, product.id)).map(plainSku) : [];
  const within = all.filter((s) => (q.start_date === undefined || s.createdAt >= q.start_date) && (q.end_date === undefined || s.createdAt <= q.end_date));
  const field = q.order.replace(/^-/, '');
  const at = (s: Sku): string => (field === 'updated_at' ? (s.updatedAt ?? s.createdAt) : s.createdAt);
  const sorted = within.sort((a, b) => at(a).localeCompare(at(b)) || a.id.localeCompare(b.id));
  if (q.order.startsWith('-')) sorted.reverse();
  const skip = (q.page - 1) * q.limit;
  return { skus: sorted.slice(skip, skip + q.limit), total: within.length };
}

/**
 * POST /v1/products/{productId}/skus: the reference's upsert, as createProduct: `id` names an
 * existing SKU of the product, a reserved `source_id` names the SKU to update; otherwise a new SKU
 * (`sku_…`), counted on its product.
 * @throws NotFoundError (product; an `id` naming no SKU of it), DuplicateError (the `source_id` is
 *   another product's SKU's), InvalidPayloadError (the product has MAX_SKUS_PER_PRODUCT SKUs), ConflictRetryError.
 */
export function createSku(deps: Deps, projectId: string, productRef: string, body: CreateSkuBody): Promise<Sku> {
  const { id, source_id: sourceId, ...fields } = body;
  return retryOnConflict(busy(`SKUs of product ${productRef}`), async () => {
    const product = await productOf(deps, projectId, productRef);
    if (id !== undefined) {
      const read = await repo.getSku(deps, projectId, product.id, id);
      if (!read) throw new NotFoundError('sku', id);
      return applySkuFields(deps, projectId, read, fields);
    }
    if (sourceId !== undefined) {
      const source = await repo.getSkuBySource(deps, projectId, sourceId);
      if (source && source.productId !== product.id) {
        throw new DuplicateError('sku', `A SKU of another product has source_id ${sourceId}`, sourceId);
      }
      if (source) {
        const read = await repo.getSku(deps, projectId, product.id, source.skuId);
        return read ? applySkuFields(deps, projectId, read, fields) : RETRY;
      }
    }
    if (product.skuCount >= MAX_SKUS_PER_PRODUCT) {
      throw new InvalidPayloadError(`A product has at most ${MAX_SKUS_PER_PRODUCT} SKUs; product ${product.id} has them all`);
    }
    const sku: StoredSku = withSkuFields(
      {
        id: deps.ids.id('sku'),
        sourceId: sourceId ?? null,
        productId: product.id,
        sku: null,
        price: null,
        currency: null,
        attributes: {},
        imageUrl: null,
        metadata: {},
        createdAt: deps.clock.now().toISOString(),
        updatedAt: null,
        revision: 0,
      },
      fields,
    );
    return (await repo.insertSku(deps, projectId, sku)) === 'ok' ? plainSku(sku) : RETRY;
  });
}

/**
 * PUT /v1/products/{productId}/skus/{skuId}: sets the fields sent on the product's SKU (by id or
 * `source_id`); the others stay.
 * @throws NotFoundError (product, then SKU), ConflictRetryError.
 */
export function updateSku(deps: Deps, projectId: string, productRef: string, skuRef: string, body: UpdateSkuBody): Promise<Sku> {
  return retryOnConflict(busy(`SKU ${skuRef}`), async () => {
    const product = await productOf(deps, projectId, productRef);
    const read = await findSkuOf(deps, projectId, product, skuRef);
    if (!read) throw new NotFoundError('sku', skuRef);
    return applySkuFields(deps, projectId, read, body);
  });
}

/**
 * DELETE /v1/products/{productId}/skus/{skuId}: deletes the product's SKU and frees its source id;
 * without `force` it goes to the bin (parent: the product).
 * @throws NotFoundError (product, then SKU; also to all but one of concurrent deletes), ConflictRetryError.
 */
export function deleteSku(deps: Deps, projectId: string, productRef: string, skuRef: string, force: boolean): Promise<void> {
  return retryOnConflict(busy(`SKU ${skuRef}`), async () => {
    const product = await productOf(deps, projectId, productRef);
    const read = await findSkuOf(deps, projectId, product, skuRef);
    if (!read) throw new NotFoundError('sku', skuRef);
    await leaveCollections(deps, projectId, [], [read.id]);
    const outcome = await repo.removeSku(deps, projectId, read, force ? null : skuBinEntry(deps, read));
    return outcome === 'ok' ? undefined : RETRY;
  });
}
