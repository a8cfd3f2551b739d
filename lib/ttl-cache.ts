/** A small map whose entries expire after a fixed age; the clock is injected for tests. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (this.now() - hit.at >= this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, at: this.now() });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
