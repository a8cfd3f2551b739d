import type { Product } from '../products/product.js';
import type { CollectionFilter, FilterValue } from './product-collection.js';

/*
 * Evaluating an AUTO_UPDATE collection's filter on a product (no I/O). A field's operators all
 * hold; fields combine by the junction. A field without a value (null, or metadata key absent) is
 * no value: negative operators hold for it, `$is_unknown` does, the others do not.
 */

/** The product fields a filter may name, besides `metadata.<key>`. */
export const FILTER_FIELDS = ['id', 'source_id', 'name', 'price', 'image_url', 'created_at'] as const;
/** The operators this service evaluates. */
export const FILTER_OPERATORS = [
  '$in',
  '$not_in',
  '$is',
  '$is_not',
  '$has_value',
  '$is_unknown',
  '$starts_with',
  '$ends_with',
  '$contains',
  '$not_contain',
  '$more_than',
  '$less_than',
  '$more_than_equal',
  '$less_than_equal',
] as const;

/** Whether a field name is one a filter may use. */
export const isFilterField = (field: string): boolean =>
  (FILTER_FIELDS as readonly string[]).includes(field) || (field.startsWith('metadata.') && field.length > 'metadata.'.length);

type Scalar = string | number | boolean | null;

/** The product's value of a filter field; a metadata value that is an object or list is no scalar: null. */
export function fieldValue(p: Product, field: string): Scalar {
  switch (field) {
    case 'id':
      return p.id;
    case 'source_id':
      return p.sourceId;
    case 'name':
      return p.name;
    case 'price':
      return p.price;
    case 'image_url':
      return p.imageUrl;
    case 'created_at':
      return p.createdAt;
  }
  const v = p.metadata[field.slice('metadata.'.length)];
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

/** Equal as the client means it: a number and its decimal text are one value (metadata arrive as either). */
const same = (a: Scalar, b: FilterValue): boolean => a !== null && String(a) === String(b);
const asNumber = (v: Scalar | FilterValue): number | null => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
/** Ordered comparison: numbers as numbers, otherwise as text (ISO dates order so). */
function compare(a: Scalar, b: FilterValue): number | null {
  if (a === null || typeof a === 'boolean') return null;
  const [x, y] = [asNumber(a), asNumber(b)];
  if (x !== null && y !== null) return x - y;
  return typeof a === 'string' && typeof b === 'string' ? a.localeCompare(b) : null;
}
const text = (v: Scalar): string | null => (v === null ? null : String(v));

/** Whether one operator holds for a value. */
export function holds(op: string, value: Scalar, operands: readonly FilterValue[]): boolean {
  const s = text(value);
  const first = operands[0];
  switch (op) {
    case '$in':
    case '$is':
      return operands.some((o) => same(value, o));
    case '$not_in':
    case '$is_not':
      return !operands.some((o) => same(value, o));
    case '$has_value':
      return value !== null;
    case '$is_unknown':
      return value === null;
    case '$starts_with':
      return s !== null && operands.some((o) => s.startsWith(String(o)));
    case '$ends_with':
      return s !== null && operands.some((o) => s.endsWith(String(o)));
    case '$contains':
      return s !== null && operands.some((o) => s.includes(String(o)));
    case '$not_contain':
      return s === null || !operands.some((o) => s.includes(String(o)));
  }
  if (first === undefined) return false;
  const c = compare(value, first);
  if (c === null) return false;
  if (op === '$more_than') return c > 0;
  if (op === '$less_than') return c < 0;
  if (op === '$more_than_equal') return c >= 0;
  if (op === '$less_than_equal') return c <= 0;
  return false;
}

/** Whether the product is in the collection the filter describes. A filter of no field takes every product. */
export function matchesCollectionFilter(filter: CollectionFilter, p: Product): boolean {
  const fields = Object.entries(filter.fields);
  if (fields.length === 0) return true;
  const test = ([field, { conditions }]: [string, { conditions: Record<string, FilterValue[]> }]) =>
    Object.entries(conditions).every(([op, operands]) => holds(op, fieldValue(p, field), operands));
  return filter.junction === 'or' ? fields.some(test) : fields.every(test);
}

/** What a product write does to the AUTO_UPDATE memberships: the collections it joins and those it leaves. */
export function membershipChanges(
  collections: readonly { id: string; filter: CollectionFilter }[],
  before: Product | null,
  after: Product,
): { join: string[]; leave: string[] } {
  const join: string[] = [];
  const leave: string[] = [];
  for (const c of collections) {
    const was = before !== null && matchesCollectionFilter(c.filter, before);
    const is = matchesCollectionFilter(c.filter, after);
    if (is) join.push(c.id);
    if (was && !is) leave.push(c.id);
  }
  return { join, leave };
}
