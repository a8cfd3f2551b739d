import { type CsvLimits, CsvSyntaxError, createCsvParser, DEFAULT_CSV_LIMITS } from './csv.js';

/** One data row: its line in the file, and its values by header (or why it cannot be read). */
export type CsvRow = { line: number; values: Record<string, string> } | { line: number; problem: string };

export interface CsvTable {
  /** The header names as written (trimmed), in file order. */
  headers: string[];
  rows: CsvRow[];
}

/** Characters of text read per step, as a stream delivers them. */
const PIECE = 64 * 1024;

/**
 * Reads a CSV file whose first record names the columns. A row with another number of fields than
 * the header is a row problem (the rows around it are still read); everything else that is not CSV
 * is a CsvSyntaxError naming its line. Header names are trimmed and must be unique and non-empty.
 * @throws CsvSyntaxError: no header, an empty or repeated column name, a quoting error, more than `maxRows` rows.
 */
export function readCsvTable(text: string, maxRows: number, limits: CsvLimits = DEFAULT_CSV_LIMITS): CsvTable {
  const parser = createCsvParser(limits);
  let headers: string[] | null = null;
  const rows: CsvRow[] = [];
  const take = (records: ReturnType<typeof parser.push>) => {
    for (const record of records) {
      if (headers === null) {
        headers = record.fields.map((h) => h.trim());
        const seen = new Set<string>();
        for (const h of headers) {
          if (h === '') throw new CsvSyntaxError(record.line, 'the header has an empty column name');
          if (seen.has(h.toLowerCase())) throw new CsvSyntaxError(record.line, `the header names column "${h.slice(0, 100)}" twice`);
          seen.add(h.toLowerCase());
        }
        continue;
      }
      if (rows.length >= maxRows) throw new CsvSyntaxError(record.line, `more than ${maxRows} rows (split the file)`);
      if (record.fields.length !== headers.length) {
        rows.push({ line: record.line, problem: `${record.fields.length} fields where the header has ${headers.length}` });
        continue;
      }
      const values: Record<string, string> = Object.create(null) as Record<string, string>;
      headers.forEach((h, i) => {
        values[h] = record.fields[i] as string;
      });
      rows.push({ line: record.line, values });
    }
  };
  for (let at = 0; at < text.length; at += PIECE) take(parser.push(text.slice(at, at + PIECE)));
  take(parser.end());
  if (headers === null) throw new CsvSyntaxError(1, 'the file is empty (the first line must name the columns)');
  if (rows.length === 0) throw new CsvSyntaxError(2, 'the file has a header but no rows');
  return { headers, rows };
}

/**
 * A column looked up the way Voucherify's files name them: case, spaces and underscores do not
 * matter (`Source_id`, `source_id`, `Source Id`).
 */
export const columnKey = (header: string): string => header.toLowerCase().replace(/[\s_]+/g, '');
