/**
 * What the deployed bundles use in place of `mnemonist/lru-cache` (infra/constructs/bundling-settings.ts
 * `alias`). Its one importer is the DynamoDB client's endpoint-discovery cache
 * (`@aws-sdk/endpoint-cache`), which every client builds and which this service never fills:
 * endpoint discovery is off unless configured, and nothing here configures it. mnemonist's cache
 * with its typed-array and iterator helpers is about 7 KiB of every minified handler; this one,
 * a Map kept in recency order, is the part of its interface that cache calls (`get`, `set`,
 * `peek`, `has`, `clear`, `size`), with the same least-recently-used eviction.
 */
export default class LRUCache<K, V> {
  readonly capacity: number;
  private readonly entries = new Map<K, V>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error('LRUCache: capacity should be a positive integer');
    this.capacity = capacity;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The value, its recency unchanged. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Stores the value as the most recently used, evicting the least recently used when full. */
  set(key: K, value: V): this {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
    return this;
  }

  clear(): void {
    this.entries.clear();
  }
}
