import * as z from '../zod.js';
import { customerInput } from '../customers/customer.schema.js';
import { updateOrderBody } from '../orders/order.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { createProductBody } from '../products/product.schema.js';
import { MAX_CODE_LENGTH } from '../vouchers/code-generator.js';

/**
 * Resources one bulk request may name. Every row's failure is kept in the async action item
 * (400 KB), as for the imports; the body itself is bounded at 1 MiB (MAX_BODY_BYTES).
 */
export const MAX_BULK_ROWS = 1000;

const code = z.string().check(z.minLength(1), z.maxLength(MAX_CODE_LENGTH));
const sourceId = z.string().check(
  z.minLength(1),
  z.maxLength(1500),
  z.refine((s) => Buffer.byteLength(s) <= 1500, 'must not exceed 1500 bytes'),
);
const rows = <T extends z.core.$ZodType>(item: T) => z.array(item).check(z.minLength(1), z.maxLength(MAX_BULK_ROWS));

/** POST /v1/vouchers/bulk/async: each code with the metadata keys to set on it (only metadata, as the reference says). */
export const updateVouchersInBulkBody = rows(z.strictObject({ code, metadata: metadataSchema }));
export type UpdateVouchersInBulkBody = z.output<typeof updateVouchersInBulkBody>;

/** POST /v1/vouchers/metadata/async: the metadata keys every listed code gets. */
export const updateVouchersMetadataInBulkBody = z.strictObject({ codes: rows(code), metadata: metadataSchema });
export type UpdateVouchersMetadataInBulkBody = z.output<typeof updateVouchersMetadataInBulkBody>;

/** POST /v1/products/bulk/async: products upserted by `source_id` (required: it names the product). */
export const updateProductsInBulkBody = rows(z.strictObject({ ...createProductBody.shape, id: z.optional(z.never()), source_id: sourceId }));
export type UpdateProductsInBulkBody = z.output<typeof updateProductsInBulkBody>;

/** POST /v1/products/metadata/async and POST /v1/customers/metadata/async: source ids and the metadata keys each gets. */
export const metadataInBulkBody = z.strictObject({ source_ids: rows(sourceId), metadata: metadataSchema });
export type MetadataInBulkBody = z.output<typeof metadataInBulkBody>;

/** POST /v1/customers/bulk/async: customers upserted by `source_id` (required: it names the customer). */
export const updateCustomersInBulkBody = rows(z.strictObject({ ...customerInput.shape, id: z.optional(z.never()), source_id: sourceId }));
export type UpdateCustomersInBulkBody = z.output<typeof updateCustomersInBulkBody>;

/**
 * POST /v1/orders/import: new orders, each as POST /v1/orders takes one but without `id` (an
 * import makes orders; it never names a stored one). The reference allows 2,000; 1,000 here, the
 * bound of every bulk route.
 */
export const importOrdersBody = rows(z.strictObject({ ...updateOrderBody.shape, id: z.optional(z.never()) }));
export type ImportOrdersBody = z.output<typeof importOrdersBody>;
