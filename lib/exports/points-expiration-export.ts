import { csvRow } from './csv.js';
import type { Export } from './export.js';
import type { ExportFiles } from './export-files.js';
import type { ExportRowsDeps } from './export-rows.js';
import { finishExport, getExport, startExport } from './export.repo.js';

/** `sort` and `signal`: export-rows.ts. */
type Deps = ExportRowsDeps & { files: ExportFiles };

/**
 * Runs one export job, of any exported object: SCHEDULED/IN_PROGRESS → IN_PROGRESS, then reads
 * the object's rows page by page (export-sources.ts) through the filters into CSV parts of a
 * multipart upload under the export's fixed key, then IN_PROGRESS → DONE. When the source reads
 * rows in the export's order they stream; any other order goes through an external merge sort
 * (external-sort.ts: chunks of `sort.chunkRows` rows in memory, sorted chunk files in the temp
 * dir, merged line by line). A redelivered job of a final export does nothing; one of an
 * IN_PROGRESS export (a worker died) writes the same key again. On any failure the upload is
 * aborted and the error rethrown. Once `signal` is raised the run stops before its next page (or
 * its next write, while merging) and abandons its partial upload the same way; the export stays
 * IN_PROGRESS and the next run writes the file from the start. An export deleted while it ran
 * (DELETE /v1/exports/{id}) does not finish: its file is deleted again.
 * @returns the export as it ends, or null when it does not exist.
 * @throws JobStoppedError when `signal` stopped the run.
 */
export async function runExport(deps: Deps, projectId: string, exportId: string): Promise<Export | null> {
  // The rows' code is in the export worker's lazy chunk: its load (begun by the worker) goes on during startExport's round trip.
  const rowsCode = import('./export-lane.lazy.js');
  // Awaited only once the export has started; a run that ends before must not leave a rejection unhandled.
  rowsCode.catch(() => undefined);
  const started = await startExport(deps, projectId, exportId, deps.clock.now().toISOString());
  if (!started) return getExport(deps, projectId, exportId);
  const upload = await deps.files.upload(started.objectKey, { contentType: 'text/csv; charset=utf-8', downloadName: `${exportId}.csv` });
  let rows = 0;
  try {
    await upload.write(Buffer.from(csvRow(started.fields)));
    const { writeRows } = await rowsCode;
    rows = await writeRows(deps, started, upload);
    await upload.complete();
  } catch (error) {
    await upload.abort();
    throw error;
  }
  const done = await finishExport(deps, projectId, exportId, rows, deps.clock.now().toISOString());
  if (done) return done;
  const now = await getExport(deps, projectId, exportId);
  if (!now) await deps.files.delete(started.objectKey);
  return now;
}

/** The points-expiration export's run (the first export kind): the shared runner. */
export const runPointsExpirationExport = runExport;
