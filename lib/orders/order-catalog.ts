import { InvalidPayloadError } from '../errors.js';
import type { Product, Sku } from '../products/product.js';
import type { OrderItem, OrderItemProduct } from './order.js';
import type { OrderItemInput } from './order.schema.js';

/*
 * Order lines and the catalog (docs/decisions.md "Order lines and rules on the catalog"). Pure: the
 * reads are lib/orders/order-catalog.repo.ts (walkCatalog) in whatever rounds the caller makes.
 */

/** What a line names of the catalog, and whether it brings its own price. */
export interface LineRef {
  productId: string | null;
  skuId: string | null;
  productSourceId: string | null;
  skuSourceId: string | null;
  priced: boolean;
}

/** The catalog a line names: `source_id` is a product's unless `related_object` says sku. */
export const lineRefOf = (i: OrderItem): LineRef => ({
  productId: i.productId ?? i.product?.id ?? null,
  skuId: i.skuId ?? i.sku?.id ?? null,
  productSourceId: i.product?.sourceId ?? (i.relatedObject !== 'sku' ? i.sourceId : null),
  skuSourceId: i.sku?.sourceId ?? (i.relatedObject === 'sku' ? i.sourceId : null),
  priced: i.price !== null,
});

/**
 * What was read of the catalog for a request's lines: per id or source id, the value (null: read and
 * not there; absent: not read), and the collection memberships read (`${collectionId}\u0000${memberId}`).
 */
export interface Catalog {
  products: Map<string, Product | null>;
  skus: Map<string, Sku | null>;
  productSources: Map<string, string | null>;
  skuSources: Map<string, string | null>;
  members: Map<string, boolean>;
  /** Ids of deleted products and SKUs that lines name (read for the ids a rule targets): no target matches them. */
  gone: Set<string>;
}

export const emptyCatalog = (): Catalog => ({
  products: new Map(),
  skus: new Map(),
  productSources: new Map(),
  skuSources: new Map(),
  members: new Map(),
  gone: new Set(),
});

export const memberKey = (collectionId: string, memberId: string): string => `${collectionId}\u0000${memberId}`;

/** A line's `product` (`name`) or `sku` (`sku`) object as the catalog has it, with the `override` sent. */
const objectOf = (x: Product | Sku, label: 'name' | 'sku', value: string | null, sent: OrderItemProduct | null): OrderItemProduct => ({
  id: x.id,
  ...(x.sourceId !== null ? { sourceId: x.sourceId } : {}),
  ...(sent?.override !== undefined ? { override: sent.override } : {}),
  ...(value !== null ? { [label]: value } : {}),
  ...(x.price !== null ? { price: x.price } : {}),
  metadata: x.metadata,
});

/**
 * The line with the catalog's values: its product's and SKU's ids, its `product` / `sku` objects as
 * the catalog has them, and, when it sent no price, the SKU's price, else the product's (its amount
 * then `price × quantity` unless sent). A line naming what the catalog does not have (or what was not
 * read) is left as sent: an uncatalogued line, as before the catalog existed.
 * @throws InvalidPayloadError when the catalog's `price × quantity` is beyond 2^53 - 1.
 */
export function withCatalog(item: OrderItem, c: Catalog, index: number): OrderItem {
  const ref = lineRefOf(item);
  const skuId = ref.skuId ?? (ref.skuSourceId !== null ? (c.skuSources.get(ref.skuSourceId) ?? null) : null);
  const sku = skuId !== null ? c.skus.get(skuId) : undefined;
  const productId = ref.productId ?? sku?.productId ?? (ref.productSourceId !== null ? (c.productSources.get(ref.productSourceId) ?? null) : null);
  const product = productId !== null ? c.products.get(productId) : undefined;
  if (!product && !sku) return item;
  const price = item.price ?? sku?.price ?? product?.price ?? null;
  const total = price !== null && item.quantity !== null ? price * item.quantity : null;
  if (total !== null && !Number.isSafeInteger(total)) {
    throw new InvalidPayloadError(`Property .items.${index}: the catalog's price × quantity must not exceed ${Number.MAX_SAFE_INTEGER}`);
  }
  return {
    ...item,
    productId: product?.id ?? item.productId,
    skuId: sku?.id ?? item.skuId,
    price,
    amount: item.amount ?? total,
    product: product ? objectOf(product, 'name', product.name, item.product) : item.product,
    sku: sku ? objectOf(sku, 'sku', sku.sku, item.sku) : item.sku,
  };
}

/** Whether the line (with its catalog ids) is in the collection, as read: its product, or its SKU, is a member. */
export function inCollection(c: Catalog, item: Pick<OrderItem, 'productId' | 'skuId'>, collectionId: string): boolean {
  return (
    (item.productId !== null && c.members.get(memberKey(collectionId, item.productId)) === true) ||
    (item.skuId !== null && c.members.get(memberKey(collectionId, item.skuId)) === true)
  );
}

/** lineRefOf of a line as a request sends it (before its figures are checked). */
export const lineRefOfInput = (i: OrderItemInput): LineRef => ({
  productId: i.product_id ?? i.product?.id ?? null,
  skuId: i.sku_id ?? i.sku?.id ?? null,
  productSourceId: i.product?.source_id ?? (i.related_object !== 'sku' ? (i.source_id ?? null) : null),
  skuSourceId: i.sku?.source_id ?? (i.related_object === 'sku' ? (i.source_id ?? null) : null),
  priced: i.price !== undefined,
});
