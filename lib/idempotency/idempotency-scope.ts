import { createHash } from 'node:crypto';
import { BadRequestError } from '../errors.js';

/** The request header that carries the key (Stripe's `Idempotency-Key`, the IETF httpapi draft). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

const KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/** One keyed request: whose key it is, and what request it stands for. */
export interface IdempotencyScope {
  projectId: string;
  key: string;
  /** SHA-256 of the operation and the canonical request (the parts its endpoint fingerprints). */
  fingerprint: string;
}

/** JSON with object keys sorted at every level, so equal bodies hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const requestFingerprint = (operationId: string, request: unknown): string =>
  createHash('sha256')
    .update(`${operationId}\n${canonical(request)}`)
    .digest('hex');

/**
 * The idempotency scope of a request, or null when it carries no key.
 * @param key the header's value as sent (undefined when absent).
 * @param request what the key stands for: the same key with another `request` is refused as reused.
 * @throws BadRequestError (400 `invalid_idempotency_key`) for a key that is not 1–255 printable ASCII characters without spaces.
 */
export function idempotencyScope(projectId: string, key: string | undefined, operationId: string, request: unknown): IdempotencyScope | null {
  if (key === undefined) return null;
  if (!KEY_PATTERN.test(key)) {
    throw new BadRequestError(
      'invalid_idempotency_key',
      'Invalid idempotency key',
      `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters without spaces`,
    );
  }
  return { projectId, key, fingerprint: requestFingerprint(operationId, request) };
}
