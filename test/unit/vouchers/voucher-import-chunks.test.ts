import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkImport } from '../../../lib/vouchers/voucher-import-chunks.js';

const size = (item: unknown) => Buffer.byteLength(JSON.stringify(item));

describe('chunkImport', () => {
  it('cuts 130 vouchers into chunks of 49, 49 and 32, in order', () => {
    const items = Array.from({ length: 130 }, (_, i) => ({ code: `C${i}` }));
    const chunks = chunkImport(items, 49, 300_000);
    expect(chunks.map((c) => c.length)).toEqual([49, 49, 32]);
    expect(chunks.flat()).toEqual(items);
  });

  it('keeps every chunk within the count and the byte bound, never empty, the order kept', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ code: fc.string({ minLength: 1, maxLength: 20 }), pad: fc.string({ maxLength: 200 }) }), { maxLength: 300 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 300, max: 5000 }),
        (items, maxVouchers, maxBytes) => {
          const chunks = chunkImport(items, maxVouchers, maxBytes);
          expect(chunks.flat()).toEqual(items);
          for (const chunk of chunks) {
            expect(chunk.length).toBeGreaterThan(0);
            expect(chunk.length).toBeLessThanOrEqual(maxVouchers);
            // A single item larger than the bound still gets a chunk of its own.
            if (chunk.length > 1) expect(chunk.reduce((n, item) => n + size(item), 0)).toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
    );
  });
});
