import type { ExportedObject } from '../exports/export.js';
import { EXPORTERS } from '../exports/exporters.js';
import { looksLikeJson, type PersonalData, redactJsonText } from './customer-erasure.rules.js';

/**
 * How a customer's erasure treats one export file (I/O-free; the stage that reads and writes the
 * files is customer-erasure-files.ts). A row is the customer's when a cell holds the customer id
 * (a `customer_id` cell, or a JSON cell naming it) or equals one of the values that tell the
 * customer apart (source id, email, phone). Such a row is anonymised as the table's copies are:
 * a cell equal to a personal value is emptied, a JSON cell (metadata, details) loses its personal
 * strings and customer-shaped maps, and in a customer export the customer's own row loses every
 * personal column. Other rows, the columns and the row count stay as they were.
 */

/** The columns of a customer export that are not personal: the customer's id and its dates. */
const CUSTOMER_RECORD_COLUMNS: readonly string[] = ['id', 'created_at', 'updated_at'];

/**
 * Columns of a customer export that are the customer's personal fields (emptied whole in its row): every column the
 * export offers but its id and dates, so a column added to the export is erased until it is named here as not personal.
 */
const CUSTOMER_PERSONAL_COLUMNS: ReadonlySet<string> = new Set(EXPORTERS.customer.fields.filter((f) => !CUSTOMER_RECORD_COLUMNS.includes(f)));

/**
 * Per exported object: the columns that may hold a personal value, and those that tie a row to
 * its customer. Every other column is an id, a code, an amount, a status or a date.
 */
const COLUMNS: Readonly<Record<ExportedObject, { personal: readonly string[]; tying: readonly string[] }>> = {
  customer: { personal: [...CUSTOMER_PERSONAL_COLUMNS], tying: ['id', 'source_id', 'email', 'phone'] },
  redemption: { personal: ['customer_source_id', 'metadata'], tying: ['customer_id', 'customer_source_id'] },
  publication: { personal: ['customer_source_id', 'metadata'], tying: ['customer_id', 'customer_source_id'] },
  order: { personal: ['metadata'], tying: ['customer_id'] },
  voucher: { personal: ['metadata', 'additional_info'], tying: ['customer_id'] },
  voucher_transactions: { personal: ['details', 'reason', 'source_id'], tying: ['details'] },
  points_expiration: { personal: [], tying: [] },
};

/**
 * What the erasure does with an export of `object` whose columns are `fields`:
 * - `skip`: no column can hold a personal value (the file is not read);
 * - `rewrite`: the customer's rows can be told apart, and are anonymised in a new file;
 * - `scan`: personal values may be there but no column ties a row to its customer (a customer
 *   export of names and addresses only, orders' metadata without `customer_id`): the file is read,
 *   and deleted if any cell holds one of the customer's personal values.
 */
export function fileErasurePlan(object: ExportedObject, fields: readonly string[]): 'skip' | 'rewrite' | 'scan' {
  const columns = COLUMNS[object];
  if (!fields.some((f) => columns.personal.includes(f))) return 'skip';
  return fields.some((f) => columns.tying.includes(f)) ? 'rewrite' : 'scan';
}

/** Whether a row of an export file is the customer's. */
export function rowNamesCustomer(cells: readonly string[], p: PersonalData): boolean {
  const tying = p.identifying ?? [];
  return cells.some((c) => c.includes(p.customerId) || tying.includes(c));
}

/**
 * In a customer export, whether the row is the customer itself (its `id`, or its source id, email
 * or phone in those columns), not another customer whose metadata names it.
 */
function isCustomersOwnRow(header: readonly string[], cells: readonly string[], p: PersonalData): boolean {
  const tying = p.identifying ?? [];
  return header.some((column, i) => {
    const cell = cells[i] ?? '';
    if (column === 'id') return cell === p.customerId;
    return (column === 'source_id' || column === 'email' || column === 'phone') && tying.includes(cell);
  });
}

/**
 * One data row of an export file with the customer's personal data removed.
 * @returns the new cells, or null when the row is not the customer's or holds nothing to remove.
 */
export function redactCsvRow(object: ExportedObject, header: readonly string[], cells: readonly string[], p: PersonalData): string[] | null {
  if (!rowNamesCustomer(cells, p)) return null;
  const own = object === 'customer' && isCustomersOwnRow(header, cells, p);
  let changed = false;
  const out = cells.map((cell, i) => {
    let next = cell;
    if (own && CUSTOMER_PERSONAL_COLUMNS.has(header[i] ?? '')) next = '';
    else if (p.values.includes(cell)) next = '';
    else if (looksLikeJson(cell)) next = redactJsonText(cell, p);
    if (next !== cell) changed = true;
    return next;
  });
  return changed ? out : null;
}

/** Whether any cell of a row (a JSON cell's strings included) is one of the customer's personal values: what `scan` looks for. */
export function rowHoldsPersonal(cells: readonly string[], p: PersonalData): boolean {
  return cells.some((cell) => p.values.includes(cell) || (looksLikeJson(cell) && redactJsonText(cell, p) !== cell));
}
