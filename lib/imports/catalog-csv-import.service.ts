import type { AsyncAction } from '../async-actions/async-action.js';
import { enqueueBulk } from '../bulk/bulk-job.js';
import { MAX_BULK_ROWS } from '../bulk/bulk.schema.js';
import type { JobQueue } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import { customerRow, productRow, skuRow, sourceIdOf } from './catalog-csv.js';
import { readCsvFile } from './csv-file.js';
import { mapRows } from './csv-values.js';
import type { ImportCsvBody } from './import.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'> & { jobs: JobQueue };

/** A file's rows as a bulk action: rows that map are applied by the job, the rest are failures with their line. */
function enqueueRows(
  deps: Deps,
  projectId: string,
  type: 'PRODUCTS.IMPORT_CSV' | 'SKUS.IMPORT_CSV' | 'CUSTOMERS.IMPORT_CSV',
  file: string,
  map: (values: Record<string, string>) => Record<string, unknown>,
  requestId: string,
): Promise<AsyncAction> {
  const { items, failed } = mapRows(readCsvFile(file, MAX_BULK_ROWS).rows, sourceIdOf, map);
  const rows = items.map(({ line, item }) => ({ ref: typeof item.source_id === 'string' ? item.source_id : '', line, body: item }));
  return enqueueBulk(deps, projectId, type, rows, requestId, failed);
}

/**
 * POST /v1/products/importCSV (PRODUCTS.IMPORT_CSV): each row upserted as POST /v1/products does.
 * @throws InvalidPayloadError (the file, naming its line), Error (queue).
 */
export function importProductsUsingCsv(deps: Deps, projectId: string, body: ImportCsvBody, requestId: string): Promise<AsyncAction> {
  return enqueueRows(deps, projectId, 'PRODUCTS.IMPORT_CSV', body.file, productRow, requestId);
}

/**
 * POST /v1/skus/importCSV (SKUS.IMPORT_CSV): each row upserted into its product as POST /v1/products/{productId}/skus does.
 * @throws InvalidPayloadError (the file, naming its line), Error (queue).
 */
export function importSKUsUsingCsv(deps: Deps, projectId: string, body: ImportCsvBody, requestId: string): Promise<AsyncAction> {
  return enqueueRows(deps, projectId, 'SKUS.IMPORT_CSV', body.file, skuRow, requestId);
}

/**
 * POST /v1/customers/importCSV (CUSTOMERS.IMPORT_CSV): each row upserted as POST /v1/customers does.
 * @throws InvalidPayloadError (the file, naming its line), Error (queue).
 */
export function importCustomersUsingCsv(deps: Deps, projectId: string, body: ImportCsvBody, requestId: string): Promise<AsyncAction> {
  return enqueueRows(deps, projectId, 'CUSTOMERS.IMPORT_CSV', body.file, customerRow, requestId);
}
