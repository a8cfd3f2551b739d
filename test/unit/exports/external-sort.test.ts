import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PointsExpirationField } from '../../../lib/exports/export.js';
import { externalSort } from '../../../lib/exports/external-sort.js';
import { rowComparator } from '../../../lib/exports/export-rows.js';

interface Row {
  key: number;
  seq: number;
}

const byKey = (a: Row, b: Row): number => a.key - b.key;

let parent: string;
/** Every temporary directory the sort made under `parent` (it must leave none). */
const leftovers = () => readdir(parent);

beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'external-sort-test-'));
});

afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Deterministic pseudo-random rows with many equal keys. */
function rows(n: number, keys: number): Row[] {
  let x = 12345;
  return Array.from({ length: n }, (_, seq) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return { key: x % keys, seq };
  });
}

async function* slowly<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

describe('externalSort', () => {
  it('merges many chunks into one sorted, stable sequence and removes its chunk files', async () => {
    const input = rows(2_345, 50);
    const out = await collect(externalSort(slowly(input), { compare: byKey, chunkRows: 100, tmpDir: parent }));
    const expected = [...input].sort(byKey); // Array#sort is stable: equal keys keep input order
    expect(out).toEqual(expected);
    expect(out.map((r) => r.seq)).not.toEqual(input.map((r) => r.seq));
    expect(await leftovers()).toEqual([]);
  });

  it('keeps equal rows in input order across chunk boundaries (ties)', async () => {
    const input = Array.from({ length: 30 }, (_, seq) => ({ key: seq % 2, seq }));
    const out = await collect(externalSort(input, { compare: byKey, chunkRows: 7, tmpDir: parent }));
    expect(out.map((r) => r.seq)).toEqual([...input.filter((r) => r.key === 0), ...input.filter((r) => r.key === 1)].map((r) => r.seq));
  });

  it('sorts descending with a reversed comparator', async () => {
    const input = rows(1_000, 1_000);
    const desc = (a: Row, b: Row) => b.key - a.key || a.seq - b.seq;
    const out = await collect(externalSort(input, { compare: desc, chunkRows: 64, tmpDir: parent }));
    expect(out).toEqual([...input].sort(desc));
    expect(out[0]?.key).toBeGreaterThanOrEqual(out.at(-1)?.key ?? Infinity);
  });

  it('sorts a single chunk in memory without touching the disk', async () => {
    const input = rows(50, 10);
    const out = await collect(externalSort(input, { compare: byKey, chunkRows: 50, tmpDir: parent }));
    expect(out).toEqual([...input].sort(byKey));
    expect(await leftovers()).toEqual([]);
  });

  it('yields nothing for empty input', async () => {
    expect(await collect(externalSort([], { compare: byKey, chunkRows: 3, tmpDir: parent }))).toEqual([]);
    expect(await leftovers()).toEqual([]);
  });

  it('handles an exact multiple of the chunk size and text that needs escaping', async () => {
    const input = Array.from({ length: 40 }, (_, i) => ({ text: `line ${39 - i}\n"q",\u2028é`, n: 39 - i }));
    const out = await collect(externalSort(input, { compare: (a, b) => a.n - b.n, chunkRows: 10, tmpDir: parent }));
    expect(out).toEqual([...input].reverse());
  });

  it('removes its chunk files when the input fails and when the reader stops early', async () => {
    async function* failing(): AsyncGenerator<Row> {
      yield* rows(25, 5);
      throw new Error('read failed');
    }
    await expect(collect(externalSort(failing(), { compare: byKey, chunkRows: 10, tmpDir: parent }))).rejects.toThrow('read failed');
    expect(await leftovers()).toEqual([]);

    const seen: Row[] = [];
    for await (const row of externalSort(rows(100, 7), { compare: byKey, chunkRows: 10, tmpDir: parent })) {
      seen.push(row);
      if (seen.length === 5) {
        expect((await leftovers()).length).toBe(1);
        break;
      }
    }
    expect(seen).toHaveLength(5);
    expect(await leftovers()).toEqual([]);
  });

  it('refuses a chunk size below one', async () => {
    await expect(collect(externalSort([1], { compare: (a, b) => a - b, chunkRows: 0 }))).rejects.toThrow(RangeError);
  });
});

describe('rowComparator (export rows)', () => {
  const cells = (id: string, points: string, voucher = 'v_1', expires = ''): Record<PointsExpirationField, string> => ({
    id,
    campaign_id: 'camp_1',
    voucher_id: voucher,
    status: 'ACTIVE',
    expires_at: expires,
    points,
  });

  it('compares points as numbers, text by code unit, ties by bucket id; descending is the exact reverse', async () => {
    const input = [cells('b', '100', 'v_10'), cells('a', '9', 'v_9'), cells('c', '9', 'V_2'), cells('d', '1000', 'v_10')];
    const sortBy = (field: PointsExpirationField, asc: boolean) => [...input].sort(rowComparator(field, asc)).map((c) => c.id);
    expect(sortBy('points', true)).toEqual(['a', 'c', 'b', 'd']); // as strings "100" < "1000" < "9"
    expect(sortBy('points', false)).toEqual(['d', 'b', 'c', 'a']);
    expect(sortBy('voucher_id', true)).toEqual(['c', 'b', 'd', 'a']); // "V_2" < "v_10" < "v_9" (code units, not locale)
    expect(sortBy('voucher_id', false)).toEqual(['a', 'd', 'b', 'c']);
    const merged = await collect(externalSort(input, { compare: rowComparator('points', true), chunkRows: 1, tmpDir: parent }));
    expect(merged.map((c) => c.id)).toEqual(['a', 'c', 'b', 'd']);
    expect(await leftovers()).toEqual([]);
  });

  it('puts empty cells after every value (first when descending)', () => {
    const input = [cells('a', '1', 'v', ''), cells('b', '1', 'v', '2024-01-02'), cells('c', '1', 'v', '2024-01-01')];
    expect([...input].sort(rowComparator('expires_at', true)).map((c) => c.id)).toEqual(['c', 'b', 'a']);
    expect([...input].sort(rowComparator('expires_at', false)).map((c) => c.id)).toEqual(['a', 'b', 'c']);
  });
});
