import { listReply } from '../openapi/list-reply.js';
import { productReplySchema, skuReplySchema } from '../products/product.reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of product collections (product-collection.mapper.ts writes these shapes). Only the
 * OpenAPI generator and the tests import this module.
 */

/** A STATIC collection's product or SKU: `product_id` names a SKU's product. */
export const collectionItemReplySchema = z.strictObject({
  id: z.string(),
  product_id: z.optional(z.string()),
  object: z.enum(['product', 'sku']),
});

/** The filter as set: `junction`, then one `{conditions}` per field (each operator with its list of values). */
export const collectionFilterReplySchema = z.looseObject({ junction: z.enum(['and', 'or']) });

/** Voucherify's `products_collection`. */
export const productCollectionReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  type: z.enum(['STATIC', 'AUTO_UPDATE']),
  /** AUTO_UPDATE only. */
  filter: z.optional(collectionFilterReplySchema),
  /** STATIC only: every product and SKU picked, in id order. */
  products: z.optional(z.array(collectionItemReplySchema)),
  created_at: z.iso.datetime(),
  object: z.literal('products_collection'),
});
export type ProductCollectionReply = z.output<typeof productCollectionReplySchema>;

/** GET /v1/product-collections: a page of collections; `total` counts them all. */
export const productCollectionListReplySchema = listReply(productCollectionReplySchema, {
  dataRef: 'data',
  total: "The number of the project's product collections",
});
export type ProductCollectionListReply = z.output<typeof productCollectionListReplySchema>;

/** A SKU in a collection's product list, with its product. */
export const collectionSkuReplySchema = z.strictObject({
  ...skuReplySchema.def.shape,
  product: productReplySchema,
});

/** GET /v1/product-collections/{productCollectionId}/products: a page of its products and SKUs; `total` counts its members. */
export const collectionProductListReplySchema = listReply(z.union([productReplySchema, collectionSkuReplySchema]), {
  dataRef: 'data',
  total: 'The number of products and SKUs in the collection',
});
export type CollectionProductListReply = z.output<typeof collectionProductListReplySchema>;
