import { stopIfAsked } from '../jobs/job-stop.js';
import type { Runtime } from '../runtime.js';
import { csvRow } from './csv.js';
import type { Export } from './export.js';
import type { ExportFiles, FileUpload } from './export-files.js';
import { compileExportFilters } from './export-filters.js';
import { type Cells, type RowSource, rowSource } from './export-sources.js';
import { failExportRecord, finishExport, getExport, startExport } from './export.repo.js';
import { EXPORTERS } from './exporters.js';
import { externalSort } from './external-sort.js';

export { bucketCells } from './export-sources.js';

/**
 * `sort`: the external sort of orders the source does not read in (rows per in-memory chunk,
 * where chunk files go); defaults 20,000 rows and os.tmpdir(). Tests make chunks small so several are merged.
 * `signal`: the host's stop signal (see runExport).
 */
type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'logger'> & {
  files: ExportFiles;
  sort?: { chunkRows?: number; tmpDir?: string };
  signal?: AbortSignal;
};

/** CSV rows of the sorted path gathered before one upload write. */
const WRITE_ROWS = 1000;

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order of rows by one column, where the source does not read them in that order. Text
 * compares by UTF-16 code units (not locale), `numeric` columns as numbers; an empty cell sorts
 * after every value; ties break by the row's id. Descending is the exact reverse (ties too), as
 * `-expires_at` is the reverse of `expires_at`.
 */
export function rowComparator(field: string, ascending: boolean, numeric: boolean = field === 'points'): (a: Cells, b: Cells) => number {
  const sign = ascending ? 1 : -1;
  const byValue = (x = '', y = ''): number => {
    if (x === y) return 0;
    if (x === '') return 1;
    if (y === '') return -1;
    return numeric ? Math.sign(Number(x) - Number(y)) || compareText(x, y) : compareText(x, y);
  };
  return (a, b) => sign * (byValue(a[field], b[field]) || compareText(a.id ?? '', b.id ?? ''));
}

/** The source's rows in its own order, a page at a time, filtered-out rows left out. */
async function* matchingRows(deps: Deps, e: Export, source: RowSource, ascending: boolean): AsyncGenerator<Cells[]> {
  const matches = compileExportFilters(e.exportedObject, e.filters);
  for await (const page of source.pages(ascending)) {
    stopIfAsked(deps.signal, `Export ${e.id}`);
    const rows = page.filter(matches);
    if (rows.length > 0) yield rows;
  }
}

async function* each<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const page of pages) yield* page;
}

/** Writes the rows as CSV in the export's order. @returns how many. */
async function writeRows(deps: Deps, e: Export, upload: FileUpload): Promise<number> {
  const spec = EXPORTERS[e.exportedObject];
  const source = rowSource(deps, e);
  const line = (cells: Cells): string => csvRow(e.fields.map((f) => cells[f]));
  let rows = 0;
  if (source.sorted && e.orderBy === spec.naturalOrder) {
    // The source's order is the export's order: stream page by page, no sort.
    for await (const page of matchingRows(deps, e, source, e.ascending)) {
      await upload.write(Buffer.from(page.map(line).join('')));
      rows += page.length;
    }
    return rows;
  }
  const sorted = externalSort(each(matchingRows(deps, e, source, true)), {
    compare: rowComparator(e.orderBy, e.ascending, spec.numbers.includes(e.orderBy)),
    chunkRows: deps.sort?.chunkRows,
    tmpDir: deps.sort?.tmpDir,
  });
  let text = '';
  let pending = 0;
  for await (const cells of sorted) {
    text += line(cells);
    rows += 1;
    pending += 1;
    if (pending >= WRITE_ROWS) {
      stopIfAsked(deps.signal, `Export ${e.id}`);
      await upload.write(Buffer.from(text));
      text = '';
      pending = 0;
    }
  }
  if (text) await upload.write(Buffer.from(text));
  return rows;
}

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
  const started = await startExport(deps, projectId, exportId, deps.clock.now().toISOString());
  if (!started) return getExport(deps, projectId, exportId);
  const upload = await deps.files.upload(started.objectKey, { contentType: 'text/csv; charset=utf-8', downloadName: `${exportId}.csv` });
  let rows = 0;
  try {
    await upload.write(Buffer.from(csvRow(started.fields)));
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

/**
 * Marks an export ERROR with the reason, unless it is already final.
 * @returns true when this call moved the export to ERROR; false when it was final or missing.
 */
export async function failExport(deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock'>, projectId: string, exportId: string, reason: string): Promise<boolean> {
  return (await failExportRecord(deps, projectId, exportId, reason, deps.clock.now().toISOString())) !== null;
}
