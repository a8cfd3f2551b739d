/**
 * The erasure's export-file stage alone, for customer-erasure.job.ts to `import()`: a lazily loaded module keeps all
 * of its exports, so this one re-exports only what the job calls. In the export jobs worker's package
 * (LAZY_CHUNK_HANDLERS) it is a chunk loaded by the first erasure, not at cold start.
 */
export { eraseExportFiles } from './customer-erasure-files.js';
