import type { Customer } from './customer.js';

/**
 * What a customer's erasure looks for and how it anonymises an item (I/O-free; the job is
 * customer-erasure.ts). An item is the customer's when it names the customer's id anywhere (ids are
 * random, so no other customer's item matches); in such an item every string equal to one of the
 * customer's personal values is set to null, a customer object (any map whose `id` is the
 * customer's) loses its personal fields, and JSON text (an idempotency record's first reply) is
 * parsed and anonymised the same way. Ids, amounts and counts stay.
 */

/** The customer's personal values and id, as the erasure item keeps them until the job is DONE. */
export interface PersonalData {
  customerId: string;
  values: string[];
  /**
   * The values that tell the customer apart in an export file row without its id (source id,
   * email, phone). Absent on erasures started before export files were reached.
   */
  identifying?: string[];
}

/** Personal fields of a customer object, in stored (camelCase) and wire (snake_case) spelling. */
const PERSONAL_FIELDS = ['name', 'email', 'phone', 'birthdate', 'birthday', 'description', 'address', 'sourceId', 'source_id'] as const;
const METADATA_FIELDS = ['metadata'] as const;

const stringsOf = (value: unknown, into: string[]): void => {
  if (typeof value === 'string') {
    if (value.length > 0) into.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) stringsOf(v, into);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) stringsOf(v, into);
  }
};

/** Every personal string of a customer: source id, name, email, phone, birthdate, description, address parts and metadata values. */
export function personalDataOf(c: Customer): PersonalData {
  const values: string[] = [];
  stringsOf([c.sourceId, c.name, c.email, c.phone, c.birthdate, c.description, c.address, c.metadata], values);
  const identifying = [c.sourceId, c.email, c.phone].filter((v): v is string => typeof v === 'string' && v.length > 0 && v !== c.id);
  return { customerId: c.id, values: [...new Set(values)].filter((v) => v !== c.id), identifying };
}

/** Whether a stored item (its attributes as read, binary parts decoded to text by the caller) names the customer. */
export const namesCustomer = (text: string, p: PersonalData): boolean => text.includes(p.customerId);

/** Whether a key attribute holds a personal value (such an item cannot be anonymised in place: it is deleted). */
export const keyHoldsPersonal = (key: string, p: PersonalData): boolean => p.values.some((v) => key.includes(v));

/** Whether a text may be a JSON object or array (stored metadata, an export's JSON cell). */
export const looksLikeJson = (s: string): boolean => (s.startsWith('{') && s.endsWith('}')) || (s.startsWith('[') && s.endsWith(']'));

/** A JSON text with the customer's personal data removed; the same text when it is not JSON or nothing changed. */
export function redactJsonText(text: string, p: PersonalData): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return text;
  }
  const cleaned = redact(parsed, p);
  return cleaned === parsed ? text : JSON.stringify(cleaned);
}

/**
 * The value with the customer's personal data removed; the same reference when nothing changed
 * (so a caller writes only what did).
 */
export function redact(value: unknown, p: PersonalData): unknown {
  if (typeof value === 'string') {
    if (p.values.includes(value)) return null;
    return looksLikeJson(value) && value.includes(p.customerId) ? redactJsonText(value, p) : value;
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redact(v, p);
      if (r !== v) changed = true;
      return r;
    });
    return changed ? out : value;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && !(value instanceof Set)) {
    const source = value as Record<string, unknown>;
    const isCustomer = source.id === p.customerId;
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(source)) {
      let r: unknown;
      if (isCustomer && (PERSONAL_FIELDS as readonly string[]).includes(k)) r = v === null || v === undefined ? v : null;
      else if (isCustomer && (METADATA_FIELDS as readonly string[]).includes(k))
        r = v !== null && typeof v === 'object' && Object.keys(v).length === 0 ? v : {};
      else r = redact(v, p);
      if (r !== v) changed = true;
      out[k] = r;
    }
    return changed ? out : value;
  }
  return value;
}
