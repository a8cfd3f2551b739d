import { matchesString } from '../filter-conditions.js';
import type { StringFilterConditions } from '../filter-conditions.schema.js';

/**
 * A segment's filter (Voucherify's syntax: `junction` and `{ "<field>": { "conditions": { "$op": value } } }`)
 * checked once (parseSegmentFilter) and evaluated on one customer (matchesSegmentFilter). No I/O.
 * String operators reuse lib/filter-conditions.ts; numbers and dates add their own.
 */

/** What a filter reads of a customer: its fields by wire name, `address.*` and `metadata`. */
export interface FilterCustomer {
  id: string;
  source_id: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
  birthdate: string | null;
  created_at: string;
  updated_at: string | null;
  address: Record<string, unknown> | null;
  metadata: Record<string, unknown>;
}

const FIELDS = ['id', 'source_id', 'name', 'email', 'phone', 'description', 'birthdate', 'created_at', 'updated_at'] as const;
const ADDRESS_FIELDS = ['city', 'state', 'country', 'postal_code', 'line_1', 'line_2'] as const;
const STRING_OPS = ['$in', '$not_in', '$is', '$is_not', '$has_value', '$is_unknown', '$starts_with', '$ends_with', '$contains', '$not_contain'];
const NUMBER_OPS = ['$more_than', '$more_than_equal', '$less_than', '$less_than_equal'];
const DATE_OPS = ['$after', '$before'];
const OPERATORS = [...STRING_OPS, ...NUMBER_OPS, ...DATE_OPS];

type Operand = string | number | boolean | (string | number | boolean)[];
export interface FieldCondition {
  field: string;
  conditions: Record<string, Operand>;
}
export interface SegmentFilter {
  or: boolean;
  fields: FieldCondition[];
}

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

/** The filter checked: every field known, every operator known with an operand of its kind. @throws UnsupportedFilterError naming what is not. */
export function parseSegmentFilter(raw: Record<string, unknown>): SegmentFilter {
  const fields: FieldCondition[] = [];
  let or = false;
  for (const [field, value] of Object.entries(raw)) {
    if (field === 'junction') {
      if (typeof value !== 'string' || !['and', 'or'].includes(value.toLowerCase())) throw new UnsupportedFilterError('filter.junction must be and or or');
      or = value.toLowerCase() === 'or';
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
    fields.push({ field, conditions: conditions as Record<string, Operand> });
  }
  return { or, fields };
}

const text = (v: unknown): string | null => (isScalar(v) ? String(v) : null);
const single = (o: Operand): string | number | boolean => (Array.isArray(o) ? (o[0] ?? '') : o);

function valueOf(c: FilterCustomer, field: string): unknown {
  if (field.startsWith('metadata.')) {
    const key = field.slice(9);
    return Object.hasOwn(c.metadata, key) ? c.metadata[key] : null;
  }
  if (field.startsWith('address.')) {
    const key = field.slice(8);
    return c.address && Object.hasOwn(c.address, key) ? c.address[key] : null;
  }
  return c[field as (typeof FIELDS)[number]];
}

function holds(value: unknown, op: string, operand: Operand): boolean {
  const one = single(operand);
  if (NUMBER_OPS.includes(op)) {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    if (Number.isNaN(n) || typeof one !== 'number') return false;
    return op === '$more_than' ? n > one : op === '$more_than_equal' ? n >= one : op === '$less_than' ? n < one : n <= one;
  }
  if (DATE_OPS.includes(op)) {
    const t = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(t)) return false;
    return op === '$after' ? t > Date.parse(String(one)) : t < Date.parse(String(one));
  }
  const conditions: StringFilterConditions = { [op]: Array.isArray(operand) ? operand.map(String) : String(operand) };
  return matchesString(text(value), conditions);
}

/** Whether the customer passes the filter: a field's operators all hold; the fields combine by the junction (none: every customer). */
export function matchesSegmentFilter(c: FilterCustomer, f: SegmentFilter): boolean {
  if (f.fields.length === 0) return true;
  const test = ({ field, conditions }: FieldCondition) => {
    const value = valueOf(c, field);
    return Object.entries(conditions).every(([op, operand]) => holds(value, op, operand));
  };
  return f.or ? f.fields.some(test) : f.fields.every(test);
}
