import { describe, expect, it } from 'vitest';
import { LAST_ITEM, median, parseBenchArgs, percentile, textTable } from '../../bench/stats.js';

describe('benchmark arguments', () => {
  it('reads --quick, --out FILE, --out=FILE and --only lists', () => {
    expect(parseBenchArgs([])).toEqual({ quick: false, out: null, only: [] });
    expect(parseBenchArgs(['--quick', '--out', 'r.json'])).toEqual({ quick: true, out: 'r.json', only: [] });
    expect(parseBenchArgs(['--out=r.json', '--only', '1,6'])).toEqual({ quick: false, out: 'r.json', only: [1, 6] });
    expect(parseBenchArgs(['--only', '11']).only).toEqual([11]);
  });

  it('refuses unknown arguments, a missing file and items outside 1 to LAST_ITEM', () => {
    expect(() => parseBenchArgs(['--fast'])).toThrow(/Unknown argument --fast/);
    expect(() => parseBenchArgs(['--out'])).toThrow(/--out needs a value/);
    expect(() => parseBenchArgs(['--out', '--quick'])).toThrow(/--out needs a value/);
    expect(LAST_ITEM).toBe(22);
    expect(parseBenchArgs(['--only', '16,17,18,19']).only).toEqual([16, 17, 18, 19]);
    expect(parseBenchArgs(['--only', '20,21,22']).only).toEqual([20, 21, 22]);
    expect(() => parseBenchArgs(['--only', String(LAST_ITEM + 1)])).toThrow(new RegExp(`1 to ${LAST_ITEM}`));
  });
});

describe('percentiles', () => {
  it('takes the nearest rank of the sorted samples', () => {
    const samples = [9, 1, 8, 2, 7, 3, 6, 4, 5, 10];
    expect(median(samples)).toBe(5);
    expect(percentile(samples, 99)).toBe(10);
    expect(percentile(samples, 90)).toBe(9);
    expect(percentile(samples, 0)).toBe(1);
    expect(median([42])).toBe(42);
    expect(median([])).toBeNaN();
  });

  it('leaves the samples it is given in their order', () => {
    const samples = [3, 1, 2];
    percentile(samples, 50);
    expect(samples).toEqual([3, 1, 2]);
  });
});

describe('text table', () => {
  it('pads each column to its widest cell under a rule line', () => {
    expect(
      textTable([
        ['item', 'p50'],
        ['GET /v1/vouchers/{code}', '3 ms'],
      ]),
    ).toBe(['item                     p50', '-----------------------  ----', 'GET /v1/vouchers/{code}  3 ms'].join('\n'));
  });
});
