import { toProductReply, toSkuReply } from '../products/product.mapper.js';
import type { CollectionFilter } from './product-collection.js';
import type { CollectionProductListReply, ProductCollectionListReply, ProductCollectionReply } from './product-collection.reply.js';
import type { CollectionEntryPage, CollectionPage, CollectionWithMembers } from './product-collection.service.js';

const toFilterReply = (f: CollectionFilter): NonNullable<ProductCollectionReply['filter']> => ({ junction: f.junction, ...f.fields });

/** Voucherify's `products_collection`: `filter` for AUTO_UPDATE, `products` for STATIC. */
export const toProductCollectionReply = ({ collection: c, members }: CollectionWithMembers): ProductCollectionReply => ({
  id: c.id,
  name: c.name,
  type: c.type,
  ...(c.type === 'AUTO_UPDATE' && c.filter ? { filter: toFilterReply(c.filter) } : {}),
  ...(c.type === 'STATIC'
    ? {
        products: members.map((m) =>
          m.object === 'sku' ? { id: m.id, product_id: m.productId, object: 'sku' as const } : { id: m.id, object: 'product' as const },
        ),
      }
    : {}),
  created_at: c.createdAt,
  object: 'products_collection',
});

export const toProductCollectionListReply = (page: CollectionPage): ProductCollectionListReply => ({
  object: 'list',
  data_ref: 'data',
  data: page.collections.map(toProductCollectionReply),
  total: page.total,
});

export const toCollectionProductListReply = (page: CollectionEntryPage): CollectionProductListReply => ({
  object: 'list',
  data_ref: 'data',
  data: page.entries.map((e) => (e.object === 'product' ? toProductReply(e.product) : { ...toSkuReply(e.sku), product: toProductReply(e.product) })),
  total: page.total,
});
