import { stopIfAsked } from '../jobs/job-stop.js';
import type { Runtime } from '../runtime.js';
import { csvRow } from './csv.js';
import type { Export } from './export.js';
import type { FileUpload } from './export-files.js';
import { compileExportFilters } from './export-filters.js';
import { type Cells, type RowSource, rowSource } from './export-sources.js';
import { EXPORTERS } from './exporters.js';
import { externalSort } from './external-sort.js';

/**
 * An export's rows, read from its source through its filters, written as CSV in its order: the part of an export job
 * that knows every exported object (export-sources.ts, exporters.ts, the filters, the external sort). In the export
 * jobs worker's package it is in the lazy chunk (export-lane.lazy.ts), loaded while the job's first DynamoDB call waits.
 *
 * `sort`: the external sort of orders the source does not read in (rows per in-memory chunk,
 * where chunk files go); defaults 20,000 rows and os.tmpdir(). Tests make chunks small so several are merged.
 * `signal`: the host's stop signal (see runExport in points-expiration-export.ts).
 */
export type ExportRowsDeps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'logger'> & {
  sort?: { chunkRows?: number; tmpDir?: string };
  signal?: AbortSignal;
};
type Deps = ExportRowsDeps;

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

/** Writes the rows as CSV in the export's order (the header is the caller's). @returns how many. */
export async function writeRows(deps: Deps, e: Export, upload: FileUpload): Promise<number> {
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
