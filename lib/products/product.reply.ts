import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of products and SKUs (lib/products/product.mapper.ts writes these shapes). Only the
 * OpenAPI generator and the tests import this module: handler bundles stay small.
 */

/** The SKU object: of the SKU endpoints, and inside a product's `skus`. */
export const skuReplySchema = z.strictObject({
  id: z.string(),
  source_id: z.nullable(z.string()),
  product_id: z.string(),
  sku: z.nullable(z.string()),
  price: z.nullable(z.int()),
  currency: z.nullable(z.string()),
  attributes: z.record(z.string(), z.unknown()),
  image_url: z.nullable(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.iso.datetime(),
  updated_at: z.nullable(z.iso.datetime()),
  object: z.literal('sku'),
});
export type SkuReply = z.output<typeof skuReplySchema>;

/** A product's SKUs inside the product object: every one of them (at most 100), oldest first. */
export const productSkusReplySchema = listReply(skuReplySchema, { dataRef: 'data', total: "The number of the product's SKUs" });

/** The product object, with its SKUs. */
export const productReplySchema = z.strictObject({
  id: z.string(),
  source_id: z.nullable(z.string()),
  name: z.nullable(z.string()),
  price: z.nullable(z.int()),
  attributes: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  image_url: z.nullable(z.string()),
  created_at: z.iso.datetime(),
  updated_at: z.nullable(z.iso.datetime()),
  object: z.literal('product'),
  /** Every SKU of the product, in get and list replies; create and update replies leave it out, as the reference's examples do. */
  skus: z.optional(productSkusReplySchema),
});
export type ProductReply = z.output<typeof productReplySchema>;

/** GET /v1/products: one page of the project's products, each with its SKUs; `total` counts them all. */
export const productListReplySchema = listReply(productReplySchema, { dataRef: 'products', total: "The number of the project's products (all pages)" });
export type ProductListReply = z.output<typeof productListReplySchema>;

/** GET /v1/products/{productId}/skus: one page of the product's SKUs; `total` counts them all. */
export const skuListReplySchema = listReply(skuReplySchema, { dataRef: 'skus', total: "The number of the product's SKUs (all pages)" });
export type SkuListReply = z.output<typeof skuListReplySchema>;
