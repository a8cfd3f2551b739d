import type * as z from '../zod.js';
import { type CsvRow, columnKey } from './csv-table.js';

/** A row the import leaves out, and why: `line` of the file, `code` (or source id) when the row named one. */
export interface RowFailure {
  line: number;
  code: string;
  reason: string;
}

/** Characters of a row's code, and of a reason, kept in a failure (every failure is stored in the action item, 400 KB). */
const MAX_FAILURE_CODE = 100;
const MAX_FAILURE_REASON = 100;

export const rowFailure = (line: number, code: string, reason: string): RowFailure => ({
  line,
  code: code.length > MAX_FAILURE_CODE ? `${code.slice(0, MAX_FAILURE_CODE)}…` : code,
  reason: reason.length > MAX_FAILURE_REASON ? `${reason.slice(0, MAX_FAILURE_REASON)}…` : reason,
});

/** A value a row cannot take; its message becomes the row's failure. */
export class RowValueError extends Error {
  override readonly name = 'RowValueError';
}

/** The first issue of a schema's refusal, as `field: problem`. */
export function firstIssue(issues: readonly z.core.$ZodIssue[]): string {
  const issue = issues[0];
  if (!issue) return 'invalid';
  return `${issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : ''}${issue.message}`;
}

/**
 * A row's values by column key (columnKey of the header), with the columns the import knows taken
 * out; what is left is metadata (by the header as written). Empty cells are absent: an empty cell
 * says nothing, as in Voucherify's templates.
 */
export function splitColumns(values: Record<string, string>, known: ReadonlySet<string>): { fields: Map<string, string>; metadata: Record<string, string> } {
  const fields = new Map<string, string>();
  const metadata: Record<string, string> = {};
  for (const [header, raw] of Object.entries(values)) {
    const value = raw.trim();
    if (value === '') continue;
    const key = columnKey(header);
    if (known.has(key)) fields.set(key, value);
    else metadata[header] = value;
  }
  return { fields, metadata };
}

/** An integer cell. @throws RowValueError naming the column. */
export function integerCell(column: string, value: string): number {
  if (!/^-?\d{1,15}$/.test(value)) throw new RowValueError(`${column} must be a whole number, got ${JSON.stringify(value.slice(0, 20))}`);
  return Number(value);
}

/** A decimal cell. @throws RowValueError naming the column. */
export function numberCell(column: string, value: string): number {
  if (!/^-?\d{1,15}(\.\d{1,10})?$/.test(value)) throw new RowValueError(`${column} must be a number, got ${JSON.stringify(value.slice(0, 20))}`);
  return Number(value);
}

/** `true` / `false` in any case. @throws RowValueError naming the column. */
export function booleanCell(column: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new RowValueError(`${column} must be true or false, got ${JSON.stringify(value.slice(0, 20))}`);
}

/**
 * An ISO 8601 date or date-time in the forms Voucherify's import lists (`YYYY-MM-DD`,
 * `YYYY-MM-DDTHH`, `…THH:mm`, `…THH:mm:ss`, with `Z`, an offset or milliseconds); one without a
 * zone is UTC. Returns the instant as `…Z`.
 * @throws RowValueError naming the column.
 */
export function dateCell(column: string, value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(\.\d{1,3})?)?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(value);
  const when = m ? `${m[1]}T${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}${m[5] ?? ''}${m[6] ?? 'Z'}` : '';
  const ms = Date.parse(when);
  // Date.parse rolls 2024-02-30 over to March: a UTC date must read back as written.
  const rolled = !Number.isNaN(ms) && (m?.[6] ?? 'Z') === 'Z' && new Date(ms).toISOString().slice(0, 10) !== m?.[1];
  if (!m || Number.isNaN(ms) || rolled) throw new RowValueError(`${column} must be an ISO 8601 date or date-time, got ${JSON.stringify(value.slice(0, 30))}`);
  return new Date(ms).toISOString();
}

/** The rows of a table split into what maps and what fails, by `map` (which throws RowValueError for a row it cannot take). */
export function mapRows<T>(rows: readonly CsvRow[], codeOf: (values: Record<string, string>) => string, map: (values: Record<string, string>) => T) {
  const items: { line: number; item: T }[] = [];
  const failed: RowFailure[] = [];
  for (const row of rows) {
    if ('problem' in row) {
      failed.push(rowFailure(row.line, '', row.problem));
      continue;
    }
    try {
      items.push({ line: row.line, item: map(row.values) });
    } catch (error) {
      if (!(error instanceof RowValueError)) throw error;
      failed.push(rowFailure(row.line, codeOf(row.values), error.message));
    }
  }
  return { items, failed };
}
