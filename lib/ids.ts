import { randomBytes, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Uniform random base62 string. Rejection sampling keeps every character equally likely,
 * so `length` characters carry length × log2(62) ≈ 5.95 bits each.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export interface Ids {
  /** Identifier with a Voucherify-style prefix, e.g. `proj_...`. */
  id(prefix: string): string;
  uuid(): string;
  /** Secret material: at least 256 random bits. */
  secret(): string;
  requestId(): string;
}

export const randomIds: Ids = {
  id: (prefix) => `${prefix}_${randomBase62(24)}`,
  uuid: () => randomUUID(),
  secret: () => randomBase62(50),
  requestId: () => `v-${randomBytes(9).toString('hex')}`,
};
