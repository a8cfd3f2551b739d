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

type Expression = { ConditionExpression?: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> };

/** `op` without its condition, keeping only the names and values its other expressions still use (DynamoDB refuses unused ones). */
function withoutCondition<T extends Expression & Record<string, unknown>>(op: T): T {
  const { ConditionExpression: _dropped, ExpressionAttributeNames: names, ExpressionAttributeValues: values, ...rest } = op;
  const used = Object.values(rest)
    .filter((v): v is string => typeof v === 'string')
    .join(' ');
  const keep = <V>(map: Record<string, V> | undefined): Record<string, V> | undefined => {
    const kept = Object.entries(map ?? {}).filter(([token]) => new RegExp(`${token}(?![\\w])`).test(used));
    return kept.length > 0 ? Object.fromEntries(kept) : undefined;
  };
  const n = keep(names);
  const v = keep(values);
  return { ...rest, ...(n ? { ExpressionAttributeNames: n } : {}), ...(v ? { ExpressionAttributeValues: v } : {}) } as T;
}

/** A Put's "only if absent" condition: the one condition a re-keyed copy (new keys) meets as the original did. */
const onlyIfAbsent = (condition: string | undefined): boolean => condition !== undefined && /^attribute_not_exists\(\s*[#\w]+\s*\)$/.test(condition.trim());

/**
 * The writes a job cannot avoid, taken from what it sent (items 16 and 17): each of its
 * transactions again, re-keyed to the project `to` (`rekeyed`), in the rounds they went out in
 * (a round's transactions side by side), with the same items and the same "put only if absent"
 * conditions that make a row exactly once. Other conditions (on the job's checkpoint, an
 * optimistic lock) are dropped, as they hold on the job's items and not on the copies;
 * ConditionChecks are reads and go. Writes outside transactions (PutItem, BatchWriteItem) are
 * returned as `loose` items for BatchWriteItem. Reads are not part of it: they are the job's own.
 */
export function transactionFloor(
  calls: readonly (RecordedCall & { round?: number })[],
  from: string,
  to: string,
): { rounds: Record<string, unknown>[][][]; loose: Record<string, unknown>[] } {
  const byRound = new Map<number, Record<string, unknown>[][]>();
  const loose: Record<string, unknown>[] = [];
  calls.forEach((call, index) => {
    if (call.name !== 'TransactWrite') {
      loose.push(...storedItems([call]).map((item) => rekeyed(item, from, to)));
      return;
    }
    const items: Record<string, unknown>[] = [];
    for (const entry of (call.input.TransactItems ?? []) as Record<string, Expression & Record<string, unknown>>[]) {
      const [kind, op] = Object.entries(entry)[0] ?? [];
      if (!kind || !op || kind === 'ConditionCheck') continue;
      const copy = rekeyed(op, from, to) as Expression & Record<string, unknown>;
      items.push({ [kind]: kind === 'Put' && onlyIfAbsent(op.ConditionExpression) ? copy : withoutCondition(copy) });
    }
    if (items.length === 0) return;
    const round = call.round ?? index;
    byRound.set(round, [...(byRound.get(round) ?? []), items]);
  });
  return { rounds: [...byRound.entries()].sort(([a], [b]) => a - b).map(([, list]) => list), loose };
}

/**
 * The keys of the items a job's transactions update, once each, in first-seen order. The floor
 * copies these items to its project before it starts, so its updates meet the attributes they add
 * to or append to, as the job's did (an update of `#n + :d` on a missing item is refused).
 */
export function updatedKeys(calls: readonly RecordedCall[]): Record<string, unknown>[] {
  const seen = new Map<string, Record<string, unknown>>();
  for (const call of calls) {
    if (call.name !== 'TransactWrite') continue;
    for (const entry of (call.input.TransactItems ?? []) as { Update?: { Key?: Record<string, unknown> } }[]) {
      const key = entry.Update?.Key;
      if (key) seen.set(JSON.stringify(key), key);
    }
  }
  return [...seen.values()];
}
