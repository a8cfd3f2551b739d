/** Pure helpers of items 20–22 (exports-all-bench.ts, webhooks-bench.ts): seeding by clones, sizes, memory ratios. No I/O. */

type Item = Record<string, unknown>;

/**
 * Copies of the items one real write made, as another object of the same kind: every occurrence of
 * each of `ids` (in keys, index keys and attributes alike) gets `suffix` appended. Items whose table
 * key names none of the ids (a source-id reservation, a counter) are left out: copying them would
 * only overwrite the same item again. The input is not changed.
 */
export function cloneWithIds(items: readonly Item[], ids: readonly string[], suffix: string): Item[] {
  if (ids.length === 0) throw new Error('cloneWithIds needs the ids to rename');
  // Longest first, so an id that contains another is renamed whole.
  const ordered = [...ids].sort((a, b) => b.length - a.length);
  return items
    .filter((item) => ordered.some((id) => `${String(item.PK)}\u0000${String(item.SK)}`.includes(id)))
    .map((item) => {
      let text = JSON.stringify(item);
      for (const id of ordered) text = text.split(id).join(`${id}${suffix}`);
      return JSON.parse(text) as Item;
    });
}

/** The exported objects of item 20 and the sizes (rows) each is exported at: one of them ten times the others'. */
export function exportSizes(objects: readonly string[], big: string, quick: boolean): Record<string, [small: number, large: number]> {
  const scale = quick ? 10 : 1;
  return Object.fromEntries(objects.map((o) => [o, o === big ? [10_000 / scale, 100_000 / scale] : [1_000 / scale, 10_000 / scale]]));
}

/** `large` over `small`, NaN when small is not positive. */
export const growth = (small: number, large: number): number => (small > 0 ? large / small : Number.NaN);

/** Splits `list` into runs of at most `size`. */
export function chunked<T>(list: readonly T[], size: number): T[][] {
  if (size < 1) throw new Error('chunk size must be at least 1');
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Rows (or events) per second of `count` in `ms` milliseconds; 0 for no time. */
export const rate = (count: number, ms: number): number => (ms > 0 ? (count * 1000) / ms : 0);

/**
 * A copy of `value` (a transaction's items, as JSON) with every occurrence of each `from` text
 * replaced by its `to`, longest `from` first: a floor's write aimed at its own twin of what the
 * handler wrote (another voucher, another customer). The input is not changed.
 */
export function renamed<T>(value: T, pairs: ReadonlyArray<readonly [from: string, to: string]>): T {
  let text = JSON.stringify(value);
  for (const [from, to] of [...pairs].sort((a, b) => b[0].length - a[0].length)) {
    if (from === '') throw new Error('renamed: an empty text cannot be replaced');
    text = text.split(from).join(to);
  }
  return JSON.parse(text) as T;
}
