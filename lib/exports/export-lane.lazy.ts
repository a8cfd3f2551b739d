/**
 * What the export jobs worker loads lazily, in one module so that esbuild makes one lazy chunk of it: the S3 client
 * with the export bucket's store (s3-export-files.ts), the rows of an export (export-rows.ts: every exported object's
 * source, the filters, the external sort), and a customer's erasure (its table walk, with node:zlib, and its file
 * stage). The worker starts loading it at the start of each invocation (functions/workers/export-jobs-worker.ts), and
 * each path awaits it only where it first needs it (docs/decisions.md "Worker cold start"). One module rather than
 * one per path: esbuild makes a chunk per set of lazy modules that share code, and every chunk file a cold start loads
 * costs more than the few KiB a narrower chunk would leave out (docs/benchmarks.md). A lazily loaded module keeps all
 * of its exports, so this one re-exports only what the callers use.
 */
export { containerExportFiles } from './s3-export-files.js';
export { writeRows } from './export-rows.js';
export { runCustomerErasure } from '../customers/customer-erasure.job.js';
export { eraseExportFiles } from '../customers/customer-erasure-files.js';
