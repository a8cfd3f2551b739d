import { storableNumbers } from '../db/storable.js';
import { dateTime } from '../date-time.schema.js';
import { queryBoolean, queryInt } from '../http/query-params.js';
import { metadataSchema } from '../metadata.schema.js';
import * as z from '../zod.js';

/** Source ids are part of an item key (2,048-byte limit): bounded in bytes, not only characters. */
export const MAX_SOURCE_ID_BYTES = 1500;
/** Attribute names a product may list. */
export const MAX_PRODUCT_ATTRIBUTES = 100;

const sourceId = z.string().check(
  z.minLength(1, 'must not be empty'),
  z.maxLength(MAX_SOURCE_ID_BYTES),
  z.refine((s) => Buffer.byteLength(s) <= MAX_SOURCE_ID_BYTES, `must not exceed ${MAX_SOURCE_ID_BYTES} bytes`),
);
const text = (max: number) => z.string().check(z.maxLength(max));
/** An id a request names (`prod_…`, `sku_…`, or a source id in a path); anything else simply finds nothing. */
const ref = z.string().check(
  z.minLength(1),
  z.maxLength(MAX_SOURCE_ID_BYTES),
  z.refine((s) => Buffer.byteLength(s) <= MAX_SOURCE_ID_BYTES, `must not exceed ${MAX_SOURCE_ID_BYTES} bytes`),
);
/** Prices in the currency's smallest unit, as every amount here: integers DynamoDB and JSON hold exactly. */
const price = z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER));
const attributeNames = z.array(text(200).check(z.minLength(1))).check(z.maxLength(MAX_PRODUCT_ATTRIBUTES));
/** A SKU's attribute values: a flat or nested object like metadata, with the same bound and storable numbers. */
const attributeValues = metadataSchema;
const metadata = metadataSchema.check(z.superRefine(storableNumbers));

/** The fields of a product a create or an update sets. */
const productFields = {
  name: z.optional(text(1000)),
  price: z.optional(price),
  attributes: z.optional(attributeNames),
  metadata: z.optional(metadata),
  image_url: z.optional(text(2048)),
};

/**
 * POST /v1/products. `id` or `source_id` naming an existing product updates it with the fields sent
 * (the reference's upsert); `id` naming none is 404; a new `source_id` (or none) makes a new product.
 */
export const createProductBody = z.strictObject({
  id: z.optional(ref),
  source_id: z.optional(sourceId),
  ...productFields,
});
export type CreateProductBody = z.output<typeof createProductBody>;

/** PUT /v1/products/{productId}: the fields sent replace the product's, the others stay (`metadata` as a whole). */
export const updateProductBody = z.strictObject(productFields);
export type UpdateProductBody = z.output<typeof updateProductBody>;
export type ProductFields = UpdateProductBody;

/** `{productId}`: a product's id or its `source_id`. */
export const productParams = z.strictObject({ productId: ref });
/** `{productId}` and `{skuId}` (the SKU's id or `source_id`). */
export const productSkuParams = z.strictObject({ productId: ref, skuId: ref });
/** `{skuId}`: a SKU's id or its `source_id`. */
export const skuParams = z.strictObject({ skuId: ref });

/** DELETE of a product or a SKU: `force=true` removes it for good, otherwise it goes to the bin. */
export const deleteProductQuery = z.strictObject({ force: z.optional(queryBoolean) });
export type DeleteProductQuery = z.output<typeof deleteProductQuery>;

/** The orders GET /v1/products serves: by creation (GSI1 holds no other order). */
export const PRODUCT_ORDERS = ['created_at', '-created_at'] as const;
/** The orders GET /v1/products/{productId}/skus serves: a product's SKUs are all read, so either date. */
export const SKU_ORDERS = ['created_at', '-created_at', 'updated_at', '-updated_at'] as const;

const listFields = {
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 100), 1),
  /** Only items created at or after it. */
  start_date: z.optional(dateTime),
  /** Only items created at or before it. */
  end_date: z.optional(dateTime),
};

/** GET /v1/products: `limit` (1–100, default 10), `page` (1–100), creation bounds, oldest first by default. */
export const listProductsQuery = z.strictObject({ ...listFields, order: z._default(z.enum(PRODUCT_ORDERS), 'created_at') });
export type ListProductsQuery = z.output<typeof listProductsQuery>;

/** GET /v1/products/{productId}/skus: as the product list, in any of SKU_ORDERS. */
export const listSkusQuery = z.strictObject({ ...listFields, order: z._default(z.enum(SKU_ORDERS), 'created_at') });
export type ListSkusQuery = z.output<typeof listSkusQuery>;

/** The fields of a SKU a create or an update sets. */
const skuFields = {
  sku: z.optional(text(1000)),
  price: z.optional(price),
  currency: z.optional(text(100).check(z.minLength(1))),
  attributes: z.optional(attributeValues),
  image_url: z.optional(text(2048)),
  metadata: z.optional(metadata),
};

/**
 * POST /v1/products/{productId}/skus. `id` or `source_id` naming an existing SKU of the product
 * updates it (the reference's upsert); `id` naming none is 404; a `source_id` of another product's
 * SKU is 409.
 */
export const createSkuBody = z.strictObject({
  id: z.optional(ref),
  source_id: z.optional(sourceId),
  ...skuFields,
});
export type CreateSkuBody = z.output<typeof createSkuBody>;

/** PUT /v1/products/{productId}/skus/{skuId}: the fields sent replace the SKU's, the others stay. */
export const updateSkuBody = z.strictObject(skuFields);
export type UpdateSkuBody = z.output<typeof updateSkuBody>;
export type SkuFields = UpdateSkuBody;
