import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderItem } from '../../../lib/orders/order.js';
import { type Catalog, emptyCatalog, inCollection, lineRefOf, memberKey, withCatalog } from '../../../lib/orders/order-catalog.js';
import { collectionMember, productCollection, skuRef } from '../../../lib/db/entities.js';
import type { Item, ItemKey } from '../../../lib/db/entity.js';
import { keyString } from '../../../lib/db/key-string.js';
import { walkCatalog } from '../../../lib/orders/order-catalog.repo.js';
import type { Product, Sku } from '../../../lib/products/product.js';
import { ruleTargetIds, itemMatches, ruleOrderItem } from '../../../lib/validation-rules/rule-evaluation.js';
import { coveredLines } from '../../../lib/validations/applicable-to.js';

const product = (id: string, price: number | null, more: Partial<Product> = {}): Product => ({
  id,
  sourceId: `src-${id}`,
  name: `Name ${id}`,
  price,
  attributes: [],
  metadata: { m: id },
  imageUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  ...more,
});
const sku = (id: string, productId: string, price: number | null): Sku => ({
  id,
  sourceId: `src-${id}`,
  productId,
  sku: `Sku ${id}`,
  price,
  currency: null,
  attributes: {},
  imageUrl: null,
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
});
const line = (more: Partial<OrderItem>): OrderItem => ({
  sourceId: null,
  productId: null,
  skuId: null,
  relatedObject: null,
  quantity: 1,
  price: null,
  amount: null,
  product: null,
  sku: null,
  metadata: null,
  ...more,
});
const catalogOf = (products: Product[], skus: Sku[] = []): Catalog => {
  const c = emptyCatalog();
  for (const p of products) {
    c.products.set(p.id, p);
    if (p.sourceId) c.productSources.set(p.sourceId, p.id);
  }
  for (const s of skus) {
    c.skus.set(s.id, s);
    if (s.sourceId) c.skuSources.set(s.sourceId, s.id);
  }
  return c;
};

describe('withCatalog (order lines take the catalog values)', () => {
  const shoe = product('prod_shoe', 1000);
  const sock = product('prod_sock', 200);
  const red = sku('sku_red', 'prod_sock', 250);
  const plain = sku('sku_plain', 'prod_sock', null);
  const c = catalogOf([shoe, sock], [red, plain]);

  it('a line by product id, by source id, or by SKU takes the SKU price over the product price', () => {
    expect(withCatalog(line({ productId: 'prod_shoe', quantity: 3 }), c, 0)).toMatchObject({
      price: 1000,
      amount: 3000,
      product: { id: 'prod_shoe', name: 'Name prod_shoe' },
    });
    expect(withCatalog(line({ sourceId: 'src-prod_shoe', relatedObject: 'product' }), c, 0)).toMatchObject({ productId: 'prod_shoe', price: 1000 });
    expect(withCatalog(line({ skuId: 'sku_red', quantity: 2 }), c, 0)).toMatchObject({ productId: 'prod_sock', skuId: 'sku_red', price: 250, amount: 500 });
    expect(withCatalog(line({ sourceId: 'src-sku_plain', relatedObject: 'sku' }), c, 0)).toMatchObject({ skuId: 'sku_plain', price: 200 });
  });

  it('keeps a line the catalog lacks as sent, and a price sent wins', () => {
    const unknown = line({ productId: 'prod_nope', price: 5, amount: 5 });
    expect(withCatalog(unknown, c, 0)).toBe(unknown);
    expect(withCatalog(line({ productId: 'prod_shoe', price: 700, quantity: 2 }), c, 0)).toMatchObject({ price: 700, amount: 1400 });
  });

  it('property: the line price is the sent one, else the SKU’s, else the product’s; amount = price × quantity unless sent', () => {
    fc.assert(
      fc.property(
        fc.option(fc.nat(10_000), { nil: null }),
        fc.option(fc.nat(10_000), { nil: null }),
        fc.option(fc.nat(10_000), { nil: null }),
        fc.integer({ min: 1, max: 50 }),
        fc.boolean(),
        (sent, skuPrice, productPrice, quantity, bySku) => {
          const cat = catalogOf([product('p', productPrice)], [sku('s', 'p', skuPrice)]);
          const out = withCatalog(line(bySku ? { skuId: 's', price: sent, quantity } : { productId: 'p', price: sent, quantity }), cat, 0);
          const price = sent ?? (bySku ? skuPrice : null) ?? productPrice;
          expect(out.price).toBe(price);
          expect(out.amount).toBe(price === null ? null : price * quantity);
          expect(out.productId).toBe('p');
        },
      ),
    );
  });
});

describe('collections in rules', () => {
  const cat = catalogOf([product('p1', 100), product('p2', 100)], [sku('s1', 'p2', 100)]);
  cat.members.set(memberKey('pc_a', 'p1'), true);
  cat.members.set(memberKey('pc_b', 's1'), true);
  cat.members.set(memberKey('pc_a', 'p2'), false);
  const ruleItem = (i: OrderItem) => ruleOrderItem(i, (ids, id) => inCollection(cat, ids, id));

  it('a line is in a collection when its product or its SKU is a member', () => {
    expect(inCollection(cat, { productId: 'p1', skuId: null }, 'pc_a')).toBe(true);
    expect(inCollection(cat, { productId: 'p2', skuId: 's1' }, 'pc_b')).toBe(true);
    expect(inCollection(cat, { productId: 'p2', skuId: null }, 'pc_a')).toBe(false);
    expect(inCollection(cat, { productId: 'p9', skuId: null }, 'pc_a')).toBe(false);
  });

  it('itemMatches a products_collection target only through membership', () => {
    const t = { object: 'products_collection' as const, id: 'pc_a' };
    expect(itemMatches(ruleItem(line({ productId: 'p1' })), t)).toBe(true);
    expect(itemMatches(ruleItem(line({ productId: 'p2' })), t)).toBe(false);
    expect(itemMatches(ruleOrderItem(line({ productId: 'p1' })), t)).toBe(false);
  });

  it('property: a collection entry covers exactly the member lines (APPLY_TO_EVERY)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('p1', 'p2', 'p3'), { maxLength: 12 }), (ids) => {
        const items = ids.map((id) => ruleItem(line({ productId: id, price: 10, quantity: 1 })));
        const covered = coveredLines(
          [{ applicableTo: { included: [{ object: 'products_collection', id: 'pc_a' }], excluded: [], includedAll: false } }],
          items,
        );
        expect(covered?.map((l) => l.index)).toEqual(ids.flatMap((id, i) => (id === 'p1' ? [i] : [])));
        const outside = coveredLines(
          [{ applicableTo: { included: [], excluded: [{ object: 'products_collection', id: 'pc_a' }], includedAll: false } }],
          items,
        );
        expect(outside?.map((l) => l.index)).toEqual(ids.flatMap((id, i) => (id !== 'p1' ? [i] : [])));
      }),
    );
  });

  it('ruleTargetIds names every collection of applicable_to and order.items.* once', () => {
    const rules = [
      {
        applicableTo: {
          included: [{ object: 'products_collection' as const, id: 'pc_a' }],
          excluded: [{ object: 'product' as const, id: 'p1' }],
          includedAll: false,
        },
        rules: {
          logic: '1',
          conditions: {
            1: {
              name: 'order.items.any',
              property: null,
              conditions: {
                $in: [
                  { object: 'products_collection' as const, id: 'pc_b' },
                  { object: 'products_collection' as const, id: 'pc_a' },
                ],
              },
              rules: { logic: '', conditions: {} },
              error: null,
            },
          },
        },
      },
    ];
    expect(ruleTargetIds(rules).collections.sort()).toEqual(['pc_a', 'pc_b']);
    expect([...ruleTargetIds(rules).items]).toEqual(['p1']);
  });

  it('a line naming a deleted product or SKU keeps no id or source id a target could match', () => {
    const line = {
      productId: 'prod_gone',
      skuId: 'sku_live',
      relatedObject: 'product' as const,
      sourceId: 'sock',
      quantity: 1,
      price: 200,
      amount: null,
      product: null,
      sku: { id: 'sku_live', sourceId: 'sock-red' },
    };
    const item = ruleOrderItem(line, undefined, (id) => id === 'prod_gone');
    expect([item.productId, item.productSourceId, item.skuId, item.skuSourceId]).toEqual([null, null, 'sku_live', 'sock-red']);
    expect(itemMatches(item, { object: 'product', id: 'prod_gone' })).toBe(false);
    expect(itemMatches(item, { object: 'product', source_id: 'sock' })).toBe(false);
    expect(itemMatches(ruleOrderItem(line), { object: 'product', id: 'prod_gone' })).toBe(true);
  });
});

describe('walkCatalog (what a request reads, by key only)', () => {
  const none = () => undefined;
  it('reads nothing for priced lines when no rule names a collection', () => {
    const refs = [lineRefOf(line({ productId: 'p1', price: 10 }))];
    expect(walkCatalog('proj', refs, false, [], none).keys).toEqual([]);
  });

  it('asks for an unpriced line’s product, and for memberships once its ids are known', () => {
    const refs = [lineRefOf(line({ productId: 'p1' }))];
    expect(walkCatalog('proj', refs, false, [], none).keys).toHaveLength(1);
    const withRules = walkCatalog('proj', [lineRefOf(line({ productId: 'p1', price: 5 }))], true, ['pc_a', 'pc_b'], none).keys;
    // The product, and each collection with the line's membership in it.
    expect(withRules).toHaveLength(5);
  });

  it('asks for a collection with all the memberships it needs in one round, once the SKU pointers are read, and counts members of its generation only', () => {
    const store = new Map<string, Item>([
      [keyString(skuRef.key('proj', 's1')), skuRef.toItem({ productId: 'p1' }, 'proj', 's1')],
      [
        keyString(productCollection.key('proj', 'pc_a')),
        productCollection.toItem({ id: 'pc_a', name: 'A', type: 'AUTO_UPDATE', filter: null, createdAt: '', gen: 1 }, 'proj'),
      ],
      ...(
        [
          ['p1', { until: 1 }],
          ['p2', { since: 1 }],
          ['p3', { since: 2 }],
          ['p4', {}],
        ] as const
      ).map(([id, marks]): [string, Item] => [
        keyString(collectionMember.key('proj', 'pc_a', id)),
        collectionMember.toItem({ collectionId: 'pc_a', id, object: 'product', productId: id, createdAt: '', ...marks }, 'proj'),
      ]),
    ]);
    const asked = new Set<string>();
    const lookup = (<T>(e: { fromItem(item: Item): T }, key: ItemKey) => {
      const id = keyString(key);
      if (!asked.has(id)) return undefined;
      const item = store.get(id);
      return item ? e.fromItem(item) : null;
    }) as Parameters<typeof walkCatalog>[4];
    const refs = ['s1', 'p2', 'p3', 'p4'].map((id) => lineRefOf(line(id.startsWith('s') ? { skuId: id, price: 1 } : { productId: id, price: 1 })));
    const rounds: string[][] = [];
    for (;;) {
      const { keys, catalog } = walkCatalog('proj', refs, true, ['pc_a'], lookup);
      if (keys.length === 0) {
        expect(['p1', 'p2', 'p3', 'p4'].map((id) => inCollection(catalog, { productId: id, skuId: null }, 'pc_a'))).toEqual([false, true, false, true]);
        break;
      }
      rounds.push(keys.map((k) => k.PK.split('#')[2] as string));
      for (const k of keys) asked.add(keyString(k));
    }
    // The SKU pointer (and the other lines' products), then the SKU, its product, the collection and every membership.
    expect(rounds[0]).not.toContain('PRODUCT_COLLECTIONS');
    expect(rounds[1]?.filter((k) => k === 'PRODUCT_COLLECTIONS' || k === 'PRODUCT_COLLECTION')).toHaveLength(1 + 5);
    expect(rounds).toHaveLength(2);
  });
});
