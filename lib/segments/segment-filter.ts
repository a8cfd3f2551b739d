import { DATE_OPS, NUMBER_OPS } from './segment-filter-match.js';

export { type FilterCustomer, matchesSegmentFilter } from './segment-filter-match.js';

/**
 * A segment's filter (Voucherify's syntax: `junction` and `{ "<field>": { "conditions": { "$op": value } } }`)
 * checked once, when its segment is made (parseSegmentFilter); lib/segments/segment-filter-match.ts
 * evaluates it on a customer. No I/O.
 */

const FIELDS = ['id', 'source_id', 'name', 'email', 'phone', 'description', 'birthdate', 'created_at', 'updated_at'] as const;
const ADDRESS_FIELDS = ['city', 'state', 'country', 'postal_code', 'line_1', 'line_2'] as const;
const STRING_OPS = ['$in', '$not_in', '$is', '$is_not', '$has_value', '$is_unknown', '$starts_with', '$ends_with', '$contains', '$not_contain'];
const OPERATORS = [...STRING_OPS, ...NUMBER_OPS, ...DATE_OPS];

/** Why a filter cannot be evaluated; the message names the field or operator. */
export class UnsupportedFilterError extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

function checkField(field: string): void {
  if ((FIELDS as readonly string[]).includes(field)) return;
  if (field.startsWith('address.') && (ADDRESS_FIELDS as readonly string[]).includes(field.slice(8))) return;
  if (field.startsWith('metadata.') && field.length > 9) return;
  throw new UnsupportedFilterError(
    `filter.${field} is not a field this service can evaluate; use ${FIELDS.join(', ')}, address.<${ADDRESS_FIELDS.join('|')}> or metadata.<key>`,
  );
}

/** Checks a filter: every field known, every operator known with an operand of its kind. @throws UnsupportedFilterError naming what is not. */
export function parseSegmentFilter(raw: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(raw)) {
    if (field === 'junction') {
      if (typeof value !== 'string' || !['and', 'or'].includes(value.toLowerCase())) throw new UnsupportedFilterError('filter.junction must be and or or');
      continue;
    }
    checkField(field);
    const conditions = isRecord(value) ? value.conditions : undefined;
    if (!isRecord(conditions) || Object.keys(conditions).length === 0) {
      throw new UnsupportedFilterError(`filter.${field} must be { "conditions": { "<operator>": <value> } } with at least one operator`);
    }
    for (const [op, operand] of Object.entries(conditions)) {
      const where = `filter.${field}.conditions.${op}`;
      if (!OPERATORS.includes(op))
        throw new UnsupportedFilterError(`${where} is not an operator this service can evaluate; use one of ${OPERATORS.join(', ')}`);
      const list = op === '$in' || op === '$not_in';
      const ok = list
        ? Array.isArray(operand) && operand.length > 0 && operand.every(isScalar)
        : isScalar(operand) || (Array.isArray(operand) && operand.length === 1 && isScalar(operand[0]));
      if (!ok) throw new UnsupportedFilterError(`${where} takes ${list ? 'a non-empty list of values' : 'one value'}`);
      const one = Array.isArray(operand) && !list ? operand[0] : operand;
      if (NUMBER_OPS.includes(op) && typeof one !== 'number') throw new UnsupportedFilterError(`${where} takes a number`);
      if (DATE_OPS.includes(op) && (typeof one !== 'string' || Number.isNaN(Date.parse(one))))
        throw new UnsupportedFilterError(`${where} takes an ISO 8601 date`);
    }
  }
}
