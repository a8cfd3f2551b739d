import { stopIfAsked } from '../jobs/job-stop.js';
import type { PointsBucket } from '../loyalties/points-bucket.js';
import { campaignBucketPages } from '../loyalties/points-bucket.repo.js';
import type { Runtime } from '../runtime.js';
import { csvRow } from './csv.js';
import type { Export, PointsExpirationField } from './export.js';
import type { ExportFiles, FileUpload } from './export-files.js';
import { compileFilters } from './export-filters.js';
import { failExportRecord, finishExport, getExport, startExport } from './export.repo.js';
import { externalSort } from './external-sort.js';

/**
 * `sort`: the external sort of non-expiry orders (rows per in-memory chunk, where chunk files go);
 * defaults 20,000 rows and os.tmpdir(). Tests make chunks small so several are merged.
 * `signal`: the host's stop signal (see runPointsExpirationExport).
 */
type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'logger'> & {
  files: ExportFiles;
  sort?: { chunkRows?: number; tmpDir?: string };
  signal?: AbortSignal;
};

/** Buckets read per Query page: what the worker holds in memory besides one upload part. */
const PAGE_SIZE = 1000;

/** CSV rows of the sorted path gathered before one upload write. */
const WRITE_ROWS = 1000;

type Cells = Record<PointsExpirationField, string>;

/**
 * A bucket's cells as text. `status` is ACTIVE or EXPIRED as of `today`: an ACTIVE bucket past
 * its expiry date is reported EXPIRED even before anything has moved it (expiry is checked in code).
 */
export function bucketCells(b: PointsBucket, today: string): Cells {
  const expired = b.status === 'EXPIRED' || (b.expiresAt !== null && b.expiresAt < today);
  return {
    id: b.id,
    campaign_id: b.campaignId,
    voucher_id: b.voucherId,
    status: expired ? 'EXPIRED' : 'ACTIVE',
    expires_at: b.expiresAt ?? '',
    points: String(b.points),
  };
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order of rows by one column, for orders other than expiry (those come sorted from the
 * table). Text compares by UTF-16 code units (not locale), `points` as numbers; an empty cell
 * sorts after every value; ties break by bucket id. Descending is the exact reverse (ties too),
 * as `-expires_at` is the reverse of `expires_at`.
 */
export function rowComparator(field: PointsExpirationField, ascending: boolean): (a: Cells, b: Cells) => number {
  const sign = ascending ? 1 : -1;
  const byValue = (x: string, y: string): number => {
    if (x === y) return 0;
    if (x === '') return 1;
    if (y === '') return -1;
    return field === 'points' ? Math.sign(Number(x) - Number(y)) || compareText(x, y) : compareText(x, y);
  };
  return (a, b) => sign * (byValue(a[field], b[field]) || compareText(a.id, b.id));
}

/** The campaign's rows in key (expiry) order, a page at a time: USED buckets and filtered-out rows left out. */
async function* matchingRows(deps: Deps, projectId: string, e: Export, ascending: boolean): AsyncGenerator<Cells[]> {
  const matches = compileFilters(e.filters);
  const today = deps.clock.now().toISOString().slice(0, 10);
  for await (const page of campaignBucketPages(deps, projectId, e.campaignId, { ascending, pageSize: PAGE_SIZE })) {
    stopIfAsked(deps.signal, `Export ${e.id}`);
    const rows: Cells[] = [];
    for (const bucket of page) {
      if (bucket.status === 'USED') continue;
      const cells = bucketCells(bucket, today);
      if (matches(cells)) rows.push(cells);
    }
    if (rows.length > 0) yield rows;
  }
}

async function* each<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const page of pages) yield* page;
}

/** Writes the rows as CSV in the export's order. @returns how many. */
async function writeRows(deps: Deps, projectId: string, e: Export, upload: FileUpload): Promise<number> {
  const line = (cells: Cells): string => csvRow(e.fields.map((f) => cells[f]));
  let rows = 0;
  if (e.orderBy === 'expires_at') {
    // Key order is the export's order: stream page by page, no sort.
    for await (const page of matchingRows(deps, projectId, e, e.ascending)) {
      await upload.write(Buffer.from(page.map(line).join('')));
      rows += page.length;
    }
    return rows;
  }
  const sorted = externalSort(each(matchingRows(deps, projectId, e, true)), {
    compare: rowComparator(e.orderBy, e.ascending),
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
 * Runs one export job: SCHEDULED/IN_PROGRESS → IN_PROGRESS, then reads the campaign's buckets
 * page by page through the filters into CSV parts of a multipart upload under the export's fixed
 * key, then IN_PROGRESS → DONE. Buckets spent to zero (USED) are left out. Expiry orders stream
 * in key order; any other order goes through an external merge sort (external-sort.ts: chunks
 * of `sort.chunkRows` rows in memory, sorted chunk files in the temp dir, merged line by line).
 * A redelivered job of a final export does nothing; one of an IN_PROGRESS export (a worker died)
 * writes the same key again. On any failure the upload is aborted and the error rethrown. Once
 * `signal` is raised the run stops before its next page (or its next write, while merging) and
 * abandons its partial upload the same way; the export stays IN_PROGRESS and the next run
 * writes the file from the start.
 * @returns the export as it ends, or null when it does not exist.
 * @throws JobStoppedError when `signal` stopped the run.
 */
export async function runPointsExpirationExport(deps: Deps, projectId: string, exportId: string): Promise<Export | null> {
  const started = await startExport(deps, projectId, exportId, deps.clock.now().toISOString());
  if (!started) return getExport(deps, projectId, exportId);
  const upload = await deps.files.upload(started.objectKey, { contentType: 'text/csv; charset=utf-8', downloadName: `${exportId}.csv` });
  let rows = 0;
  try {
    await upload.write(Buffer.from(csvRow(started.fields)));
    rows = await writeRows(deps, projectId, started, upload);
    await upload.complete();
  } catch (error) {
    await upload.abort();
    throw error;
  }
  const done = await finishExport(deps, projectId, exportId, rows, deps.clock.now().toISOString());
  return done ?? getExport(deps, projectId, exportId);
}

/**
 * Marks an export ERROR with the reason, unless it is already final.
 * @returns true when this call moved the export to ERROR; false when it was final or missing.
 */
export async function failExport(deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock'>, projectId: string, exportId: string, reason: string): Promise<boolean> {
  return (await failExportRecord(deps, projectId, exportId, reason, deps.clock.now().toISOString())) !== null;
}
