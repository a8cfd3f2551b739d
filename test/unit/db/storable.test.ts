import { describe, expect, it } from 'vitest';
import { unstorableNumberPath } from '../../../lib/db/storable.js';

describe('unstorableNumberPath', () => {
  it('accepts safe integers, ordinary decimals, zero and non-numbers at any depth', () => {
    expect(
      unstorableNumberPath({ a: Number.MAX_SAFE_INTEGER, b: -Number.MAX_SAFE_INTEGER, c: [0, 0.1 + 0.2, 1e-130], d: { e: 'x', f: null, g: true } }),
    ).toBeNull();
  });

  it.each([
    [{ a: 2 ** 53 }, ['a']],
    [{ a: { b: [1, -1e20] } }, ['a', 'b', 1]],
    [{ tiny: 1e-131 }, ['tiny']],
  ])('finds the unstorable number in %j at %j', (value, path) => {
    expect(unstorableNumberPath(value)).toEqual(path);
  });
});
