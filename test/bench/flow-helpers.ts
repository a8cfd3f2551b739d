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
  return items
    .filter((item) => ids.some((id) => `${String(item.PK)}\u0000${String(item.SK)}`.includes(id)))
    .map((item) =>
      renamed(
        item,
        ids.map((id) => [id, `${id}${suffix}`] as const),
      ),
    );
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
 * replaced by its `to` in one pass, the longest `from` first where several match: a floor's write aimed at its own twin of what the
 * handler wrote (another voucher, another customer). The input is not changed.
 */
export function renamed<T>(value: T, pairs: ReadonlyArray<readonly [from: string, to: string]>): T {
  if (pairs.some(([from]) => from === '')) throw new Error('renamed: an empty text cannot be replaced');
  if (pairs.length === 0) return structuredClone(value);
  const to = new Map(pairs);
  // One pass, longest first at each position: a text that contains another is replaced whole, and nothing is replaced twice.
  const pattern = new RegExp(
    [...to.keys()]
      .sort((a, b) => b.length - a.length)
      .map((from) => from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
  return JSON.parse(JSON.stringify(value).replace(pattern, (m) => to.get(m) ?? m)) as T;
}

/**
 * Node flags of the children of items 20 and 22: `--expose-gc` (item 22 measures what the heap keeps
 * after a collection), plus BENCH_CHILD_FLAGS split on spaces, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
 * to profile the workers.
 */
export const childFlags = (env: Readonly<Record<string, string | undefined>> = process.env): string[] => [
  '--expose-gc',
  ...(env.BENCH_CHILD_FLAGS ?? '').split(' ').filter((f) => f !== ''),
];
