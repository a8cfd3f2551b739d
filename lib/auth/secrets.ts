import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Credentials are long random strings (≥ 256 bits), so a single SHA-256 is enough to make a
 * leaked table useless; a slow KDF would only add latency to every request.
 */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
