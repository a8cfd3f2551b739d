import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childFlags, chunked, cloneWithIds, exportSizes, growth, rate, renamed } from '../../bench/flow-helpers.js';

describe('cloneWithIds', () => {
  const items = [
    { PK: 'T#p1#REDEMPTION#r_12', SK: 'REDEMPTION', id: 'r_12', parent: 'r_1', GSI3SK: '2026#r_12' },
    { PK: 'T#p1#REDEMPTION#r_1', SK: 'REDEMPTION', id: 'r_1' },
    { PK: 'T#p1#COUNT', SK: '3', count: 1 },
    { PK: 'T#p1#SRC#abc', SK: 'SRC', ref: 'r_1' },
  ];

  it('renames every id in keys and attributes, longest id first, and leaves out items keyed by none', () => {
    const out = cloneWithIds(items, ['r_1', 'r_12'], 'x7');
    expect(out).toEqual([
      { PK: 'T#p1#REDEMPTION#r_12x7', SK: 'REDEMPTION', id: 'r_12x7', parent: 'r_1x7', GSI3SK: '2026#r_12x7' },
      { PK: 'T#p1#REDEMPTION#r_1x7', SK: 'REDEMPTION', id: 'r_1x7' },
    ]);
  });

  it('leaves its input unchanged and refuses no ids', () => {
    const before = structuredClone(items);
    cloneWithIds(items, ['r_1'], 'x');
    expect(items).toEqual(before);
    expect(() => cloneWithIds(items, [], 'x')).toThrow(/ids/);
  });

  it('makes distinct keys for distinct suffixes', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 1e6 }), { minLength: 2, maxLength: 20 }), (ns) => {
        const keys = ns.flatMap((n) => cloneWithIds(items, ['r_1', 'r_12'], `x${n}`).map((i) => `${i.PK}|${i.SK}`));
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });
});

describe('renamed', () => {
  it('replaces every occurrence, longest text first, in a copy', () => {
    const value = { Key: { PK: 'V#CODE-1', SK: 'v_1' }, values: { ':c': 'cust_1', ':cc': 'cust_10' } };
    expect(
      renamed(value, [
        ['cust_1', 'cust_2'],
        ['cust_10', 'cust_20'],
        ['CODE-1', 'CODE-9'],
      ]),
    ).toEqual({ Key: { PK: 'V#CODE-9', SK: 'v_1' }, values: { ':c': 'cust_2', ':cc': 'cust_20' } });
    expect(value.values[':c']).toBe('cust_1');
    expect(() => renamed(value, [['', 'x']])).toThrow(/empty/);
  });
});

describe('sizes and rates', () => {
  it('gives the big object ten times the others, a tenth of each in quick mode', () => {
    expect(exportSizes(['voucher', 'order'], 'voucher', false)).toEqual({ voucher: [10_000, 100_000], order: [1_000, 10_000] });
    expect(exportSizes(['voucher', 'order'], 'voucher', true)).toEqual({ voucher: [1_000, 10_000], order: [100, 1_000] });
  });

  it('computes growth and rates, NaN or 0 where undefined', () => {
    expect(growth(100, 120)).toBeCloseTo(1.2);
    expect(growth(0, 5)).toBeNaN();
    expect(rate(500, 2000)).toBe(250);
    expect(rate(5, 0)).toBe(0);
  });

  it('chunks a list into runs that concatenate back to it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 30 }), (list, size) => {
        const chunks = chunked(list, size);
        expect(chunks.flat()).toEqual(list);
        expect(chunks.every((c) => c.length >= 1 && c.length <= size)).toBe(true);
      }),
    );
    expect(() => chunked([1], 0)).toThrow();
  });
});

describe('childFlags', () => {
  it('exposes the GC and adds BENCH_CHILD_FLAGS split on spaces', () => {
    expect(childFlags({})).toEqual(['--expose-gc']);
    expect(childFlags({ BENCH_CHILD_FLAGS: ' --cpu-prof  --cpu-prof-dir=/tmp/p ' })).toEqual(['--expose-gc', '--cpu-prof', '--cpu-prof-dir=/tmp/p']);
  });
});
