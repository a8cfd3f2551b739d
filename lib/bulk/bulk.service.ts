import type { AsyncAction } from '../async-actions/async-action.js';
import type { JobQueue } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import { enqueueBulk } from './bulk-job.js';
import type {
  ImportOrdersBody,
  MetadataInBulkBody,
  UpdateCustomersInBulkBody,
  UpdateProductsInBulkBody,
  UpdateVouchersInBulkBody,
  UpdateVouchersMetadataInBulkBody,
} from './bulk.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'> & { jobs: JobQueue };

/**
 * POST /v1/vouchers/bulk/async (VOUCHERS.BULK_UPDATE): each code's metadata keys merged into its
 * metadata; an unknown code is a failure in the result (no upsert, as the reference says).
 * @throws Error (queue unavailable).
 */
export function updateVouchersInBulk(deps: Deps, projectId: string, body: UpdateVouchersInBulkBody, requestId: string): Promise<AsyncAction> {
  return enqueueBulk(
    deps,
    projectId,
    'VOUCHERS.BULK_UPDATE',
    body.map((r) => ({ ref: r.code, body: { metadata: r.metadata } })),
    requestId,
  );
}

/** POST /v1/vouchers/metadata/async (VOUCHERS.METADATA_UPDATE): the same keys merged into every code's metadata. @throws Error (queue). */
export function updateVouchersMetadataInBulk(deps: Deps, projectId: string, body: UpdateVouchersMetadataInBulkBody, requestId: string): Promise<AsyncAction> {
  return enqueueBulk(
    deps,
    projectId,
    'VOUCHERS.METADATA_UPDATE',
    body.codes.map((code) => ({ ref: code, body: { metadata: body.metadata } })),
    requestId,
  );
}

/** POST /v1/products/bulk/async (PRODUCTS.BULK_UPDATE): each product upserted by source id, as POST /v1/products. @throws Error (queue). */
export function updateProductsInBulk(deps: Deps, projectId: string, body: UpdateProductsInBulkBody, requestId: string): Promise<AsyncAction> {
  return enqueueBulk(
    deps,
    projectId,
    'PRODUCTS.BULK_UPDATE',
    body.map((p) => ({ ref: p.source_id, body: p })),
    requestId,
  );
}

/** POST /v1/products/metadata/async (PRODUCTS.METADATA_UPDATE): keys merged into each product's metadata; an unknown source id makes a product. @throws Error (queue). */
export function updateProductsMetadataInBulk(deps: Deps, projectId: string, body: MetadataInBulkBody, requestId: string): Promise<AsyncAction> {
  return enqueueBulk(
    deps,
    projectId,
    'PRODUCTS.METADATA_UPDATE',
    body.source_ids.map((s) => ({ ref: s, body: { metadata: body.metadata } })),
    requestId,
  );
}

/** POST /v1/customers/bulk/async (CUSTOMERS.BULK_UPDATE): each customer upserted by source id, as POST /v1/customers. @throws Error (queue). */
export function updateCustomersInBulk(deps: Deps, projectId: string, body: UpdateCustomersInBulkBody, requestId: string): Promise<AsyncAction> {
  return enqueueBulk(
    deps,
    projectId,
    'CUSTOMERS.BULK_UPDATE',
    body.map((c) => ({ ref: c.source_id, body: c })),
    requestId,
  );
}

/** POST /v1/customers/metadata/async (CUSTOMERS.METADATA_UPDATE): keys merged into each customer's metadata; an unknown source id makes a customer. @throws Error (queue). */
export function updateCustomersMetadataInBulk(deps: Deps, projectId: string, body: MetadataInBulkBody, requestId: string): Promise<AsyncAction> {
  return enqueueBulk(
    deps,
    projectId,
    'CUSTOMERS.METADATA_UPDATE',
    body.source_ids.map((s) => ({ ref: s, body: { metadata: body.metadata } })),
    requestId,
  );
}

/**
 * POST /v1/orders/import (ORDERS.IMPORT): each order stored as new, without loyalty or event
 * effects (lib/orders/order.service.ts importOrder). Its id is minted here and kept in the row, so
 * a redelivered chunk finds the orders it already wrote instead of making them twice.
 * @throws Error (queue).
 */
export function importOrders(deps: Deps, projectId: string, body: ImportOrdersBody, requestId: string): Promise<AsyncAction> {
  return enqueueBulk(
    deps,
    projectId,
    'ORDERS.IMPORT',
    body.map((o) => ({ ref: o.source_id ?? '', body: { id: deps.ids.id('ord'), order: o } })),
    requestId,
  );
}
