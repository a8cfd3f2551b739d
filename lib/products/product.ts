/** A product of the catalog (Voucherify's product object, without its SKUs). */
export interface Product {
  id: string;
  /** The shop's own id of the product, unique in the project; null when none was given. */
  sourceId: string | null;
  name: string | null;
  /** Unit price in the currency's smallest unit. */
  price: number | null;
  /** The attribute names the product's SKUs give values for. */
  attributes: string[];
  metadata: Record<string, unknown>;
  imageUrl: string | null;
  createdAt: string;
  updatedAt: string | null;
}

/** A product as its item holds it: the optimistic lock and the number of its SKUs besides. */
export interface StoredProduct extends Product {
  /** Raised by every change of the product and by every SKU added or removed; a change holds only while it is as read. */
  revision: number;
  /** How many SKUs the product has: the `skus.total` of its replies and the bound on new ones. */
  skuCount: number;
}

/** A variant of a product (Voucherify's SKU object). */
export interface Sku {
  id: string;
  sourceId: string | null;
  productId: string;
  /** The SKU's name. */
  sku: string | null;
  price: number | null;
  currency: string | null;
  /** Values of the product's attributes for this variant. */
  attributes: Record<string, unknown>;
  imageUrl: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string | null;
}

/** A SKU as its item holds it. */
export interface StoredSku extends Sku {
  revision: number;
}

/** A product with every SKU it has, oldest first: what the product endpoints reply with. */
export interface ProductWithSkus {
  product: StoredProduct;
  skus: Sku[];
}

/**
 * How many SKUs one product may have. A product's replies carry all of its SKUs, and a product is
 * read with its SKUs in one Query of its partition; the bound keeps both small.
 */
export const MAX_SKUS_PER_PRODUCT = 100;

/** The product without the item's bookkeeping. */
export const plainProduct = ({ id, sourceId, name, price, attributes, metadata, imageUrl, createdAt, updatedAt }: Product): Product => ({
  id,
  sourceId,
  name,
  price,
  attributes,
  metadata,
  imageUrl,
  createdAt,
  updatedAt,
});

/** The SKU without the item's bookkeeping. */
export const plainSku = ({ id, sourceId, productId, sku, price, currency, attributes, imageUrl, metadata, createdAt, updatedAt }: Sku): Sku => ({
  id,
  sourceId,
  productId,
  sku,
  price,
  currency,
  attributes,
  imageUrl,
  metadata,
  createdAt,
  updatedAt,
});
