import type { ReadableExportFiles } from './export-files.js';

/** An export files store whose implementation is loaded on first use, or earlier when warmed. */
export interface LazyExportFiles extends ReadableExportFiles {
  /**
   * Starts loading the implementation without waiting for it, so that the load overlaps whatever the caller waits
   * for next (a job's first DynamoDB call); the first method called awaits the same load. A failed load is not
   * reported here: the next method call loads again and throws.
   */
  warm(): void;
}

/**
 * The export files store of `load` (the export jobs worker passes an `import()` of export-lane.lazy.ts, which esbuild
 * makes a lazy chunk with the S3 client: functions/workers/export-jobs-worker.ts), loaded once. A load that fails is
 * forgotten, so the next call tries again instead of failing every job of the container.
 */
export function lazyExportFiles(load: () => Promise<ReadableExportFiles>): LazyExportFiles {
  let loading: Promise<ReadableExportFiles> | undefined;
  const loaded = (): Promise<ReadableExportFiles> => {
    if (!loading) {
      const started = load();
      loading = started;
      started.catch(() => {
        if (loading === started) loading = undefined;
      });
    }
    return loading;
  };
  return {
    warm: () => {
      loaded().catch(() => undefined);
    },
    upload: async (key, options) => (await loaded()).upload(key, options),
    delete: async (key) => (await loaded()).delete(key),
    presignGet: async (key, seconds, now) => (await loaded()).presignGet(key, seconds, now),
    read: async (key) => (await loaded()).read(key),
  };
}
