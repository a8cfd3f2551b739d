import type { ItemKey } from './entity.js';

/**
 * A key's string, `${PK}\u0000${SK}`: what the validation engine and a qualification's prefetched
 * reads look items up by. Built once per key object and kept on it under a symbol (not enumerable,
 * so neither the SDK's marshalling nor equality checks see it): a read looks the same key objects
 * up again and again, and a property read costs a fraction of a WeakMap lookup.
 */
const KEY_STRING = Symbol('keyString');

export function keyString(k: ItemKey): string {
  const known = (k as ItemKey & { [KEY_STRING]?: string })[KEY_STRING];
  if (known !== undefined) return known;
  const id = `${String(k.PK)}\u0000${String(k.SK)}`;
  if (Object.isExtensible(k)) Object.defineProperty(k, KEY_STRING, { value: id });
  return id;
}

/** The key string of an item as read (looked up once: not kept on it). */
export const itemKeyString = (item: Record<string, unknown>): string => `${String(item.PK)}\u0000${String(item.SK)}`;
