import type * as z from '../zod.js';

/** Smallest non-zero magnitude a DynamoDB number can hold. */
const MIN_MAGNITUDE = 1e-130;

/**
 * Where a client-owned value (metadata) holds a number the table cannot store as sent: an integer
 * beyond 2^53 (the document client refuses to lose its precision) or a decimal below DynamoDB's
 * smallest magnitude. Without this check such a value would fail the write with a 500.
 * @returns the path of the first such number, or null.
 */
export function unstorableNumberPath(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === 'number') {
    const ok = Number.isInteger(value) ? Number.isSafeInteger(value) : Number.isFinite(value) && Math.abs(value) >= MIN_MAGNITUDE;
    return ok ? null : path;
  }
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = unstorableNumberPath(v, [...path, i]);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = unstorableNumberPath(v, [...path, k]);
      if (found) return found;
    }
  }
  return null;
}

export const STORABLE_NUMBER_MESSAGE = 'must be an integer of at most 2^53 - 1 in magnitude, or a decimal of at least 1e-130 in magnitude';

/** For `.refine` on a decimal field: a value DynamoDB can store as sent (1e-300 or 1e200 would fail the write with a 500). */
export const isStorableNumber = (value: number): boolean => unstorableNumberPath(value) === null;

/**
 * Deepest nesting accepted in a client-owned document. DynamoDB refuses items nested beyond 32
 * levels; metadata sits a few levels down (a voucher's snapshot in a bin entry), so half of that.
 */
export const MAX_DOCUMENT_DEPTH = 16;

/**
 * Where a client-owned document has a shape the table cannot store: an empty object key
 * (DynamoDB refuses empty attribute names, even inside maps) or nesting deeper than MAX_DOCUMENT_DEPTH.
 * @returns the path and the reason of the first such place, or null.
 */
export function unstorableShapePath(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; reason: string } | null {
  if (value === null || typeof value !== 'object') return null;
  if (path.length >= MAX_DOCUMENT_DEPTH) return { path, reason: `must not be nested more than ${MAX_DOCUMENT_DEPTH} levels deep` };
  const entries: [string | number, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  for (const [k, v] of entries) {
    if (k === '') return { path, reason: 'must not have an empty property name' };
    const found = unstorableShapePath(v, [...path, k]);
    if (found) return found;
  }
  return null;
}

/**
 * A zod check (for `.superRefine`) that reports the first place the table cannot store: a shape
 * (empty key, too deep) or a number. Without it such a value would fail the write with a 500.
 */
export function storableNumbers(value: unknown, ctx: z.core.$RefinementCtx): void {
  const shape = unstorableShapePath(value);
  if (shape) {
    ctx.addIssue({ code: 'custom', path: shape.path, message: shape.reason });
    return;
  }
  const path = unstorableNumberPath(value);
  if (path) {
    ctx.addIssue({ code: 'custom', path, message: STORABLE_NUMBER_MESSAGE });
  }
}
