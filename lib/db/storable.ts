import type * as z from 'zod';

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

/** A zod check (for `.superRefine`) that reports the first unstorable number at its path. */
export function storableNumbers(value: unknown, ctx: z.RefinementCtx): void {
  const path = unstorableNumberPath(value);
  if (path) {
    ctx.addIssue({
      code: 'custom',
      path,
      message: 'must be an integer of at most 2^53 - 1 in magnitude, or a decimal of at least 1e-130 in magnitude',
    });
  }
}
