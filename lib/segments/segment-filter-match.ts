import { matchesString } from '../filter-conditions.js';

/**
 * Evaluates a stored segment filter (checked when its segment was made: lib/segments/segment-filter.ts)
 * on one customer. No I/O and no messages: it rides on every customer write, the redemption's too.
 */

/** What a filter reads of a customer: its fields by wire name, `address.*` and `metadata`. */
export type FilterCustomer = Record<string, unknown> & { address: Record<string, unknown> | null; metadata: Record<string, unknown> };

export const NUMBER_OPS = ['$more_than', '$more_than_equal', '$less_than', '$less_than_equal'];
export const DATE_OPS = ['$after', '$before'];

const own = (r: Record<string, unknown> | null, k: string): unknown => (r && Object.hasOwn(r, k) ? r[k] : null);
const field = (c: FilterCustomer, f: string): unknown =>
  f.startsWith('metadata.') ? own(c.metadata, f.slice(9)) : f.startsWith('address.') ? own(c.address, f.slice(8)) : own(c, f);

function holds(value: unknown, op: string, operand: unknown): boolean {
  const one = Array.isArray(operand) && op !== '$in' && op !== '$not_in' ? operand[0] : operand;
  if (NUMBER_OPS.includes(op)) {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    if (Number.isNaN(n) || typeof one !== 'number') return false;
    return op === '$more_than' ? n > one : op === '$more_than_equal' ? n >= one : op === '$less_than' ? n < one : n <= one;
  }
  if (DATE_OPS.includes(op)) {
    const t = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    return !Number.isNaN(t) && (op === '$after' ? t > Date.parse(String(one)) : t < Date.parse(String(one)));
  }
  const text = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
  return matchesString(text, { [op]: Array.isArray(one) ? one.map(String) : String(one) });
}

/** Whether the customer passes the filter: a field's operators all hold; fields combine by `junction` (default and; none: everyone). */
export function matchesSegmentFilter(c: FilterCustomer, filter: Record<string, unknown>): boolean {
  const tests = Object.entries(filter)
    .filter(([f]) => f !== 'junction')
    .map(
      ([f, v]) =>
        () =>
          Object.entries((v as { conditions: Record<string, unknown> }).conditions).every(([op, o]) => holds(field(c, f), op, o)),
    );
  if (tests.length === 0) return true;
  return String(filter.junction).toLowerCase() === 'or' ? tests.some((t) => t()) : tests.every((t) => t());
}
