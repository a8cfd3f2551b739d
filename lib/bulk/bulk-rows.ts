import type { BulkActionType } from '../async-actions/async-action.js';
import * as customerRepo from '../customers/customer.repo.js';
import type { CustomerInput } from '../customers/customer.schema.js';
import { upsertCustomer } from '../customers/customer.service.js';
import type { BulkRow } from '../db/entities.js';
import { InvalidPayloadError } from '../errors.js';
import { enforceMetadata } from '../metadata-schemas/metadata-enforcement.js';
import { MAX_METADATA_BYTES } from '../metadata.schema.js';
import { importOrder } from '../orders/order.service.js';
import type { UpdateOrderBody } from '../orders/order.schema.js';
import * as productRepo from '../products/product.repo.js';
import type { CreateProductBody, CreateSkuBody } from '../products/product.schema.js';
import { createProduct, createSku } from '../products/product.service.js';
import type { Runtime } from '../runtime.js';
import { loadVoucher, updateVoucher } from '../vouchers/voucher.service.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'metadataSchemaCache'>;

/** Stored metadata with the row's keys set over it; refused past the metadata bound. @throws InvalidPayloadError. */
function merged(stored: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const next = { ...stored, ...given };
  if (Buffer.byteLength(JSON.stringify(next)) > MAX_METADATA_BYTES) throw new InvalidPayloadError(`Merged metadata would exceed ${MAX_METADATA_BYTES} bytes`);
  return next;
}

const metadataOf = (row: BulkRow): Record<string, unknown> => (row.body.metadata ?? {}) as Record<string, unknown>;

/**
 * Applies one row of a bulk action through the resource's own service, so a row obeys every rule
 * a single request does. Every kind is an upsert or a metadata merge, or (an order import) keyed by
 * an id minted with the request: applying a row twice leaves what applying it once did. A metadata merge reads the stored metadata and writes the union (the
 * row's keys win); a concurrent change of the same resource between the read and the write can be
 * overwritten (docs/decisions.md "CSV imports and bulk updates").
 * @throws AppError: the row's failure (not found, invalid, duplicate); ConflictRetryError and Error: transient.
 */
export async function applyBulkRow(deps: Deps, projectId: string, type: BulkActionType, row: BulkRow): Promise<void> {
  switch (type) {
    case 'VOUCHERS.BULK_UPDATE':
    case 'VOUCHERS.METADATA_UPDATE': {
      const voucher = await loadVoucher(deps, projectId, row.ref);
      await updateVoucher(deps, projectId, voucher.code, { metadata: merged(voucher.metadata, metadataOf(row)) });
      return;
    }
    case 'PRODUCTS.IMPORT_CSV':
    case 'PRODUCTS.BULK_UPDATE':
      await createProduct(deps, projectId, row.body as CreateProductBody);
      return;
    case 'PRODUCTS.METADATA_UPDATE': {
      const id = await productRepo.getProductIdBySource(deps, projectId, row.ref);
      const stored = id ? await productRepo.getProduct(deps, projectId, id) : null;
      await createProduct(deps, projectId, { source_id: row.ref, metadata: merged(stored?.metadata ?? {}, metadataOf(row)) });
      return;
    }
    case 'SKUS.IMPORT_CSV': {
      const { product_id: productId, ...sku } = row.body as CreateSkuBody & { product_id: string };
      await createSku(deps, projectId, productId, sku);
      return;
    }
    // upsertCustomer also serves the checkout's upserts, which are not checked: a row is a direct write, so it is.
    case 'CUSTOMERS.IMPORT_CSV':
    case 'CUSTOMERS.BULK_UPDATE': {
      const body = row.body as CustomerInput;
      await enforceMetadata(deps, projectId, 'customer', body.metadata ?? undefined);
      await upsertCustomer(deps, projectId, body);
      return;
    }
    case 'CUSTOMERS.METADATA_UPDATE': {
      const id = await customerRepo.getCustomerIdBySourceId(deps, projectId, row.ref);
      const stored = id ? await customerRepo.getCustomer(deps, projectId, id) : null;
      const metadata = merged(stored?.metadata ?? {}, metadataOf(row));
      await enforceMetadata(deps, projectId, 'customer', metadata);
      await upsertCustomer(deps, projectId, { source_id: row.ref, metadata });
      return;
    }
    // Not an upsert: the order's id, minted when the request was accepted, makes a second application find the first's order.
    case 'ORDERS.IMPORT': {
      const { id, order } = row.body as { id: string; order: UpdateOrderBody };
      await importOrder(deps, projectId, id, order);
      return;
    }
  }
}
