import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { camelize, snakeize } from '../../lib/case.js';

describe('camelize / snakeize', () => {
  it('renames keys at every depth, through arrays, and leaves values alone', () => {
    const wire = { amount_off: 100, applicable_to: [{ product_id: 'p', unit_type: 'x' }], nested: { percent_off: 5, list: [1, 'a_b'] } };
    const domain = { amountOff: 100, applicableTo: [{ productId: 'p', unitType: 'x' }], nested: { percentOff: 5, list: [1, 'a_b'] } };
    expect(camelize(wire)).toEqual(domain);
    expect(snakeize(domain)).toEqual(wire);
    expect(camelize(null)).toBeNull();
  });

  it('keeps a key named __proto__ as a field, never as the prototype', () => {
    const out = snakeize(JSON.parse('{"__proto__": {"pollutedKey": 1}, "aB": 2}') as Record<string, unknown>) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'a_b']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted_key: 1 });
    expect(({} as Record<string, unknown>).polluted_key).toBeUndefined();
  });

  it('property: snake_case keys come back the same after camelize then snakeize, however often a key is seen', () => {
    const key = fc.stringMatching(/^[a-z]{1,6}(_[a-z]{1,6}){0,3}$/);
    const doc = fc.dictionary(key, fc.oneof(fc.integer(), fc.dictionary(key, fc.string(), { maxKeys: 3 })), { maxKeys: 6 });
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 4 }), (docs) => {
        for (const d of docs) expect(snakeize(camelize(d))).toEqual(d);
      }),
    );
  });
});
