import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import ShimLRU from '../../../infra/bundle-shims/lru-cache.js';

/** mnemonist's cache as the SDK loads it (CommonJS, `module.exports` the class). */
const MnemonistLRU = createRequire(import.meta.url)('mnemonist/lru-cache') as typeof ShimLRU;

type Op = { kind: 'set'; key: number; value: number } | { kind: 'get' | 'peek' | 'has'; key: number } | { kind: 'clear' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 9 }), value: fc.integer() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('get' as const, 'peek' as const, 'has' as const), key: fc.integer({ min: 0, max: 9 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

describe('the bundles’ LRU cache in place of mnemonist’s', () => {
  it('answers every sequence of the calls the DynamoDB endpoint cache makes exactly as mnemonist does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 60 }), (capacity, ops) => {
        const real = new MnemonistLRU<number, number>(capacity);
        const shim = new ShimLRU<number, number>(capacity);
        for (const o of ops) {
          if (o.kind === 'set') {
            real.set(o.key, o.value);
            shim.set(o.key, o.value);
          } else if (o.kind === 'clear') {
            real.clear();
            shim.clear();
          } else {
            expect(shim[o.kind](o.key)).toEqual(real[o.kind](o.key));
          }
          expect(shim.size).toBe(real.size);
        }
      }),
    );
  });

  it('refuses a capacity that is not a positive integer, as mnemonist does', () => {
    expect(() => new ShimLRU(0)).toThrow();
    expect(() => new MnemonistLRU(0)).toThrow();
  });
});
