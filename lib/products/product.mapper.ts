import type { Product, Sku } from './product.js';
import type { ProductListReply, ProductReply, SkuListReply, SkuReply } from './product.reply.js';
import type { ProductPage, SkuPage } from './product.service.js';

export type { ProductReply, SkuReply };

/** Voucherify's SKU object. */
export const toSkuReply = (s: Sku): SkuReply => ({
  id: s.id,
  source_id: s.sourceId,
  product_id: s.productId,
  sku: s.sku,
  price: s.price,
  currency: s.currency,
  attributes: s.attributes,
  image_url: s.imageUrl,
  metadata: s.metadata,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
  object: 'sku',
});

/** Voucherify's product object; with `skus` (every SKU, oldest first) where the reply carries them (get and list). */
export const toProductReply = (p: Product, skus?: readonly Sku[]): ProductReply => ({
  id: p.id,
  source_id: p.sourceId,
  name: p.name,
  price: p.price,
  attributes: p.attributes,
  metadata: p.metadata,
  image_url: p.imageUrl,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
  object: 'product',
  ...(skus ? { skus: { object: 'list' as const, data_ref: 'data' as const, data: skus.map(toSkuReply), total: skus.length } } : {}),
});

export const toProductListReply = (page: ProductPage): ProductListReply => ({
  object: 'list',
  data_ref: 'products',
  products: page.products.map(({ product, skus }) => toProductReply(product, skus)),
  total: page.total,
});

export const toSkuListReply = (page: SkuPage): SkuListReply => ({
  object: 'list',
  data_ref: 'skus',
  skus: page.skus.map(toSkuReply),
  total: page.total,
});
