/** Pure helpers of item 9 (test/bench/redemption-bench.ts): replaying a handler's transaction as a floor, call lists. */
import type { TransactItem } from '../../lib/db/transact.js';

/**
 * A copy of a transaction a handler sent, replayable by the floor as many times as it likes: every
 * Put gets `suffix` on its sort key, so it writes a new item again under a key nobody reads (its
 * size and conditions unchanged, give or take the suffix); Updates, Deletes and ConditionChecks keep
 * their keys (counters move as the handler's do). The input is not changed.
 */
export function withFreshPutKeys(items: readonly TransactItem[], suffix: string): TransactItem[] {
  return items.map((item) => {
    if (!item.Put) return structuredClone(item);
    const put = structuredClone(item.Put);
    put.Item = { ...put.Item, SK: `${String(put.Item?.SK ?? '')}${suffix}` };
    return { ...structuredClone(item), Put: put };
  });
}

/** A list of command names with runs folded: `Get → BatchGet ×2 → TransactWrite`. */
export function callSummary(names: readonly string[]): string {
  const runs: Array<[string, number]> = [];
  for (const name of names) {
    const last = runs[runs.length - 1];
    if (last && last[0] === name) last[1] += 1;
    else runs.push([name, 1]);
  }
  return runs.map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(' → ');
}

/** Operations per second of `count` operations in `ms` milliseconds (0 for no time). */
export const opsPerSecond = (count: number, ms: number): number => (ms > 0 ? (count * 1000) / ms : 0);

/**
 * The order in which run `run` times `sides` functions: rotated by one on every run, so each side goes
 * first, second, … equally often and drift falls on all alike (`interleaved` of context.ts for any number of sides).
 */
export function rotation(run: number, sides: number): number[] {
  return Array.from({ length: sides }, (_, i) => (i + run) % sides);
}

/**
 * An item's size as DynamoDB bills it, approximately: attribute names and strings in UTF-8 bytes, a
 * number ≈ 1 byte per two significant digits + 1, booleans and nulls 1, and a list or map 3 bytes
 * plus 1 per element beside its elements (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html).
 */
export function itemBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeof value === 'number')
    return (
      Math.ceil(
        String(Math.abs(value))
          .replace(/[.-]|e.*$/g, '')
          .replace(/^0+/, '').length / 2,
      ) + 1
    );
  if (typeof value === 'boolean' || value === null || value === undefined) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + itemBytes(v), 0);
  if (typeof value === 'object')
    return 3 + Object.entries(value as Record<string, unknown>).reduce((n, [k, v]) => n + 1 + Buffer.byteLength(k, 'utf8') + itemBytes(v), 0);
  return 0;
}

/** Write units of an item of `bytes` (1 per KB started), doubled in a transaction. */
export const writeUnits = (bytes: number, transactional: boolean): number => Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);
