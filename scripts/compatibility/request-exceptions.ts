/**
 * The request fields we refuse on purpose, read from the table in docs/decisions.md between the
 * `request-exceptions:start` / `:end` markers (one row per refusal: operation, selection, field,
 * value, why). The request-side check fails on a refusal no row names and on a row that names no
 * refusal, so the table and the service cannot drift apart.
 *
 *   | Operation | Selection | Field | Value | Why |
 *   Operation  the operationId
 *   Selection  `*`, or text the selection's label contains (e.g. `event=order.paid`)
 *   Field      `body.path` / `query.path` (a value row covers the fields under it too; an `(absent)`
 *              row only that field), `body.path.*` (the fields under it), or `(request)` for a
 *              request refused as a whole (the required fields only, or every field together)
 *   Value      `*`, `(absent)` (a field the check adds to the reference's required ones, left out),
 *              or the JSON value tried
 */
import type { Outcome } from './request-check.js';

export const EXCEPTIONS_START = '<!-- request-exceptions:start -->';
export const EXCEPTIONS_END = '<!-- request-exceptions:end -->';

export interface RequestException {
  operationId: string;
  selection: string;
  field: string;
  value: string;
  why: string;
  /** 1-based line in docs/decisions.md, for messages. */
  line: number;
}

const unquote = (cell: string): string => cell.trim().replace(/^`(.*)`$/, '$1');

/** The rows of the exceptions table. @throws Error when the markers are missing or a row is malformed. */
export function parseExceptions(markdown: string): RequestException[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === EXCEPTIONS_START);
  const end = lines.findIndex((l) => l.trim() === EXCEPTIONS_END);
  if (start < 0 || end < start) throw new Error(`docs/decisions.md has no ${EXCEPTIONS_START} … ${EXCEPTIONS_END} table`);
  const out: RequestException[] = [];
  for (let i = start + 1; i < end; i++) {
    const line = lines[i]?.trim() ?? '';
    if (!line.startsWith('|') || /^\|\s*-/.test(line) || /^\|\s*Operation\s*\|/.test(line)) continue;
    // Split on pipes that are not escaped (`\|` inside a cell).
    const cells = line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split(/(?<!\\)\|/)
      .map((c) => c.replace(/\\\|/g, '|').trim());
    if (cells.length !== 5) throw new Error(`docs/decisions.md line ${i + 1}: an exception row has 5 cells (operation, selection, field, value, why)`);
    const [operationId, selection, field, value, why] = cells as [string, string, string, string, string];
    if (!why) throw new Error(`docs/decisions.md line ${i + 1}: say why the field is refused`);
    out.push({ operationId: unquote(operationId), selection: unquote(selection), field: unquote(field), value: unquote(value), why, line: i + 1 });
  }
  return out;
}

/** Whether an exception row names a refused outcome. */
export function covers(e: RequestException, o: Outcome): boolean {
  if (e.operationId !== o.operationId) return false;
  if (e.selection !== '*' && !o.variant.includes(e.selection)) return false;
  if (o.kind === 'required' || o.kind === 'together') return e.field === '(request)';
  const path = `${o.location}.${o.field}`;
  const under = (parent: string): boolean => path.startsWith(`${parent}.`) || path.startsWith(`${parent}[`);
  if (e.field.endsWith('.*')) {
    if (!under(e.field.slice(0, -2))) return false;
  } else if (e.field !== path && (o.kind === 'without' || !under(e.field))) return false;
  if (e.value === '*') return true;
  if (o.kind === 'without') return e.value === '(absent)';
  return e.value === o.value;
}
