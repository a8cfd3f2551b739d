/** Pure helpers of items 16–19 (test/bench/jobs-bench.ts): the floor's items, cut and counted from what a worker sent. */

/** A recorded DynamoDB call: the command's name without `Command` and its input (context.ts `SentCommand`). */
export interface RecordedCall {
  name: string;
  input: Record<string, unknown>;
}

/**
 * The items a worker stored whole: each Put of its transactions, each PutItem, each PutRequest of
 * its BatchWriteItems, in the order sent. Updates (counters, checkpoints) and Deletes are left
 * out: they are not items a floor of BatchWriteItem can write, and a counter moved once per row is
 * work the job chose, not work the rows need.
 */
export function storedItems(calls: readonly RecordedCall[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const call of calls) {
    if (call.name === 'TransactWrite') {
      for (const item of (call.input.TransactItems ?? []) as { Put?: { Item?: Record<string, unknown> } }[]) if (item.Put?.Item) out.push(item.Put.Item);
    } else if (call.name === 'Put') {
      const item = call.input.Item as Record<string, unknown> | undefined;
      if (item) out.push(item);
    } else if (call.name === 'BatchWrite') {
      for (const requests of Object.values((call.input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item?: Record<string, unknown> } }[]>)) {
        for (const r of requests) if (r.PutRequest?.Item) out.push(r.PutRequest.Item);
      }
    }
  }
  return out;
}

/**
 * A copy of `item` with every string occurrence of `from` (a project id) replaced by `to`, keys
 * included: the same item, byte for byte but for the id, under keys of another project, so the
 * floor writes new items of the same size without touching the subject's.
 */
export function rekeyed(item: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  if (from === '') throw new Error('rekeyed needs a non-empty id to replace');
  const swap = (value: unknown): unknown => {
    if (typeof value === 'string') return value.split(from).join(to);
    if (Array.isArray(value)) return value.map(swap);
    if (value instanceof Set) return new Set([...value].map(swap));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
    return value;
  };
  return swap(item) as Record<string, unknown>;
}

/** How many calls of each kind, e.g. `{ Get: 1000, TransactWrite: 1000 }`, sorted by name. */
export function callCounts(calls: readonly Pick<RecordedCall, 'name'>[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of calls) counts[c.name] = (counts[c.name] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/** `counts` per `per` units, to 2 decimals: `Get 1, TransactWrite 1.04` (calls per row). */
export function perUnit(counts: Record<string, number>, per: number): string {
  if (per <= 0) return '';
  return Object.entries(counts)
    .map(([name, n]) => `${name} ${Number((n / per).toFixed(2))}`)
    .join(', ');
}

/** Growth over a baseline (peak − before), never below 0: a process's memory taken by the work itself. */
export const growth = (peak: number, before: number): number => Math.max(0, peak - before);
