import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holds, matchesCollectionFilter, membershipChanges } from '../../../lib/product-collections/collection-filter.js';
import type { CollectionFilter } from '../../../lib/product-collections/product-collection.js';
import { collectionFilter } from '../../../lib/product-collections/product-collection.schema.js';
import type { Product } from '../../../lib/products/product.js';
import * as z from '../../../lib/zod.js';

const product = (over: Partial<Product> = {}): Product => ({
  id: 'prod_1',
  sourceId: 'shoe',
  name: 'Red shoe',
  price: 1000,
  attributes: [],
  metadata: { color: 'red', size: 42 },
  imageUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  ...over,
});
const filter = (junction: 'and' | 'or', fields: CollectionFilter['fields']): CollectionFilter => ({ junction, fields });

describe('matchesCollectionFilter', () => {
  it('tests fields, metadata and numbers, combined by the junction', () => {
    const p = product();
    expect(matchesCollectionFilter(filter('and', { 'metadata.color': { conditions: { $in: ['red', 'blue'] } } }), p)).toBe(true);
    expect(matchesCollectionFilter(filter('and', { price: { conditions: { $more_than: [999] } }, name: { conditions: { $starts_with: ['Red'] } } }), p)).toBe(
      true,
    );
    expect(matchesCollectionFilter(filter('and', { price: { conditions: { $more_than: [1000] } }, name: { conditions: { $starts_with: ['Red'] } } }), p)).toBe(
      false,
    );
    expect(matchesCollectionFilter(filter('or', { price: { conditions: { $more_than: [1000] } }, name: { conditions: { $starts_with: ['Red'] } } }), p)).toBe(
      true,
    );
    expect(matchesCollectionFilter(filter('and', { 'metadata.size': { conditions: { $is: ['42'] } } }), p)).toBe(true);
    expect(matchesCollectionFilter(filter('and', { 'metadata.missing': { conditions: { $is_unknown: [] } } }), p)).toBe(true);
    expect(matchesCollectionFilter(filter('and', { image_url: { conditions: { $has_value: [] } } }), p)).toBe(false);
    expect(matchesCollectionFilter(filter('and', {}), p)).toBe(true);
  });

  it('holds a value that has none for the negative operators only', () => {
    for (const op of ['$not_in', '$is_not', '$not_contain']) expect(holds(op, null, ['x'])).toBe(true);
    for (const op of ['$in', '$is', '$contains', '$starts_with', '$ends_with', '$more_than', '$less_than']) expect(holds(op, null, ['x'])).toBe(false);
  });

  it('a positive operator and its negation never both hold (property)', () => {
    const value = fc.oneof(fc.constant(null), fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 5 }));
    const operands = fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 5 })), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(value, operands, (v, os) => {
        expect(holds('$in', v, os)).toBe(!holds('$not_in', v, os));
        expect(holds('$has_value', v, [])).toBe(!holds('$is_unknown', v, []));
        expect(holds('$contains', v, os) && holds('$not_contain', v, os)).toBe(false);
      }),
    );
  });
});

describe('membershipChanges', () => {
  it('keeps a collection’s members exactly the products that match, over any sequence of writes (property)', () => {
    const price = fc.integer({ min: 0, max: 20 });
    const collections = fc.array(
      fc.record({ id: fc.uuid(), threshold: price, or: fc.boolean() }).map((c) => ({
        id: c.id,
        filter: filter(c.or ? 'or' : 'and', { price: { conditions: { $more_than_equal: [c.threshold] } }, 'metadata.tag': { conditions: { $is: ['x'] } } }),
      })),
      { maxLength: 5 },
    );
    const writes = fc.array(fc.record({ price, tagged: fc.boolean() }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(collections, writes, (cs, ws) => {
        const members = new Set<string>();
        let before: Product | null = null;
        for (const w of ws) {
          const after = product({ price: w.price, metadata: w.tagged ? { tag: 'x' } : {} });
          const { join, leave } = membershipChanges(cs, before, after);
          for (const id of join) members.add(id);
          for (const id of leave) members.delete(id);
          expect([...members].sort()).toEqual(
            cs
              .filter((c) => matchesCollectionFilter(c.filter, after))
              .map((c) => c.id)
              .sort(),
          );
          before = after;
        }
      }),
    );
  });
});

describe('collectionFilter schema', () => {
  it('reads the reference’s filter and refuses what it cannot evaluate by name', () => {
    expect(
      z.parse(collectionFilter, { junction: 'AND', 'metadata.color': { conditions: { $in: ['red'] } }, price: { conditions: { $more_than: 5 } } }),
    ).toEqual({
      junction: 'and',
      fields: { 'metadata.color': { conditions: { $in: ['red'] } }, price: { conditions: { $more_than: [5] } } },
    });
    const bad = z.safeParse(collectionFilter, { junction: 'and', price: { conditions: { $is_days_ago: [3] } }, weight: { conditions: { $is: ['1'] } } });
    expect(bad.success).toBe(false);
    const text = JSON.stringify(bad.error?.issues);
    expect(text).toContain('$is_days_ago');
    expect(text).toContain('weight');
  });
});
