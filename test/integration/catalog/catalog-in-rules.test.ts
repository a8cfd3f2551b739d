import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/*
 * Issue 35, catalog in the engine: order lines take the catalog's prices and objects, and rules
 * whose `applicable_to` / `order.items.*` name a product collection touch exactly its lines, as the
 * membership items say (AUTO_UPDATE following product writes; a deleted product in none).
 */

const at = Date.UTC(2026, 10, 2, 9, 0, 0);
type Json = Record<string, unknown>;
interface Line {
  product_id?: string;
  sku_id?: string;
  price?: number;
  amount?: number;
  discount_amount?: number;
  applied_discount_amount?: number;
  product?: Json;
  sku?: Json;
}
interface Entry {
  status: string;
  result: { error?: { key: string } };
  order?: { total_applied_discount_amount?: number; items?: Line[]; amount?: number };
}

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const ok = async (id: string, opts: Parameters<typeof api.call>[1]) => {
    const reply = await api.call(id, opts);
    if (reply.status >= 300) throw new Error(`${id}: ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.json as Json & { id: string };
  };
  const product = (json: Json) => ok('create-product', { json });
  const collection = (json: Json) => ok('create-product-collection', { json });
  /** A 50 % APPLY_TO_ITEMS voucher whose rule has `rule` (applicable_to, rules). */
  const voucher = async (code: string, rule: Json) => {
    const v = await ok('create-voucher', {
      params: { code },
      json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 50, effect: 'APPLY_TO_ITEMS' } },
    });
    const r = await ok('create-validation-rules', { json: { name: `rule ${code}`, rules: {}, ...rule } });
    await ok('create-validation-rule-assignment', { params: { validationRuleId: r.id }, json: { related_object_type: 'voucher', related_object_id: v.id } });
  };
  const validate = async (code: string, order: Json) => {
    const reply = await api.call('validate-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: code }], order } });
    expect(reply.status).toBe(200);
    return (reply.json as { redeemables: Entry[] }).redeemables[0] as Entry;
  };
  /** Acme's shoe (1000) and sock (200, a SKU at 250), a hat (400) of another brand; an AUTO_UPDATE collection of Acme. */
  const shop = async () => {
    const shoe = await product({ name: 'Shoe', source_id: 'shoe', price: 1000, metadata: { brand: 'acme' } });
    const sock = await product({ name: 'Sock', source_id: 'sock', price: 200, metadata: { brand: 'acme' } });
    const hat = await product({ name: 'Hat', source_id: 'hat', price: 400, metadata: { brand: 'other' } });
    const redSock = await ok('create-sku', {
      params: { productId: sock.id },
      json: { sku: 'Red sock', source_id: 'sock-red', price: 250, metadata: { colour: 'red' } },
    });
    const acme = await collection({ type: 'AUTO_UPDATE', name: 'Acme', filter: { junction: 'and', 'metadata.brand': { conditions: { $is: ['acme'] } } } });
    return { shoe, sock, hat, redSock, acme };
  };
  return { api, ok, product, collection, voucher, validate, shop };
}

describe('catalog prices on order lines', () => {
  it('a line given by product_id, sku_id or a source id only takes the catalog price and objects; a price sent wins; an unknown product stays as sent', async () => {
    const { api, shop } = await setup();
    const { shoe, hat, redSock, sock } = await shop();
    const reply = await api.call('validate-stacked-discounts', {
      json: {
        redeemables: [{ object: 'voucher', id: 'NONE' }],
        order: {
          items: [
            { product_id: shoe.id, quantity: 2 },
            { sku_id: redSock.id, quantity: 1 },
            { source_id: 'hat', related_object: 'product', quantity: 1, price: 350 },
            { product: { source_id: 'hat' }, quantity: 3 },
            { product_id: 'prod_not_in_catalog', quantity: 1, price: 70 },
          ],
        },
      },
    });
    expect(reply.status).toBe(200);
    const order = (reply.json as { order: { amount: number; items: Line[] } }).order;
    expect(order.items.map((i) => [i.price, i.amount])).toEqual([
      [1000, 2000],
      [250, 250],
      [350, 350],
      [400, 1200],
      [70, 70],
    ]);
    expect(order.amount).toBe(2000 + 250 + 350 + 1200 + 70);
    expect(order.items[0]?.product).toEqual({ id: shoe.id, source_id: 'shoe', name: 'Shoe', price: 1000, metadata: { brand: 'acme' } });
    expect(order.items[1]).toMatchObject({
      sku_id: redSock.id,
      product_id: sock.id,
      sku: { id: redSock.id, source_id: 'sock-red', sku: 'Red sock', price: 250, metadata: { colour: 'red' } },
      product: { id: sock.id, name: 'Sock', price: 200 },
    });
    expect(order.items[3]).toMatchObject({ product_id: hat.id, product: { id: hat.id, source_id: 'hat', name: 'Hat', price: 400 } });
    expect(order.items[4]).toEqual(expect.objectContaining({ product_id: 'prod_not_in_catalog', price: 70 }));
    expect(order.items[4]?.product).toBeUndefined();
  });

  it('POST /v1/orders stores the catalog price of a line sent without one', async () => {
    const { ok, shop } = await setup();
    const { shoe } = await shop();
    const order = (await ok('create-order', { json: { items: [{ product_id: shoe.id, quantity: 3 }] } })) as unknown as {
      id: string;
      amount: number;
      items: Line[];
    };
    expect(order.amount).toBe(3000);
    expect(order.items[0]).toMatchObject({ price: 1000, amount: 3000, product: { id: shoe.id, name: 'Shoe' } });
    const read = (await ok('get-order', { params: { orderId: order.id } })) as unknown as { items: Line[] };
    expect(read.items[0]).toMatchObject({ price: 1000, amount: 3000 });
  });
});

describe('product collections in validation rules', () => {
  it('50 % off a collection discounts exactly its lines: a mixed cart, a product_id-only line, a product added after the rule, a deleted product', async () => {
    const { api, product, voucher, validate, shop } = await setup();
    const { shoe, sock, hat, redSock, acme } = await shop();
    await voucher('ACME50', { applicable_to: { included: [{ object: 'products_collection', id: acme.id }], excluded: [] } });

    // Shoe (by id only, catalog price 1000 × 2) and the red sock SKU (its product is in Acme) are Acme's; the hat is not.
    const mixed = await validate('ACME50', {
      items: [
        { product_id: shoe.id, quantity: 2 },
        { product_id: hat.id, quantity: 1, price: 400 },
        { sku_id: redSock.id, quantity: 2, price: 300 },
      ],
    });
    expect(mixed.status).toBe('APPLICABLE');
    expect(mixed.order?.total_applied_discount_amount).toBe(1000 + 300);
    expect(mixed.order?.items?.map((i) => i.discount_amount ?? 0)).toEqual([1000, 0, 300]);

    // A product that joins the AUTO_UPDATE collection after the rule was made.
    const scarf = await product({ name: 'Scarf', source_id: 'scarf', price: 600, metadata: { brand: 'acme' } });
    const later = await validate('ACME50', {
      items: [
        { source_id: 'scarf', related_object: 'product', quantity: 1 },
        { product_id: hat.id, quantity: 1 },
      ],
    });
    expect(later.order?.items?.map((i) => i.discount_amount ?? 0)).toEqual([300, 0]);

    // A product that leaves by a change of its metadata.
    await api.call('update-product', { params: { productId: scarf.id }, json: { metadata: { brand: 'other' } } });
    const left = await validate('ACME50', {
      items: [
        { product_id: scarf.id, quantity: 1 },
        { product_id: shoe.id, quantity: 1 },
      ],
    });
    expect(left.order?.items?.map((i) => i.discount_amount ?? 0)).toEqual([0, 500]);

    // A deleted product: the rule keeps working for the other lines and never matches the deleted one.
    expect((await api.call('delete-product', { params: { productId: sock.id }, query: 'force=true' })).status).toBe(204);
    const gone = await validate('ACME50', {
      items: [
        { source_id: 'sock', related_object: 'product', quantity: 1, price: 200 },
        { product_id: sock.id, quantity: 1, price: 200 },
        { product_id: shoe.id, quantity: 1 },
      ],
    });
    expect(gone.status).toBe('APPLICABLE');
    expect(gone.order?.items?.map((i) => i.discount_amount ?? 0)).toEqual([0, 0, 500]);
    // With only the deleted product's lines, the discount has nothing to touch.
    const onlyGone = await validate('ACME50', { items: [{ product_id: sock.id, quantity: 1, price: 200 }] });
    expect(onlyGone).toMatchObject({ status: 'INAPPLICABLE', result: { error: { key: 'order_rules_violated' } } });
  });

  it('a product or SKU rule naming a deleted product never matches a line that still sends its id; an id the catalog never had still matches', async () => {
    const { api, ok, voucher, validate, shop } = await setup();
    const { shoe, sock, hat, redSock, acme } = await shop();
    await voucher('SOCK50', {
      applicable_to: {
        included: [
          { object: 'product', id: sock.id },
          { object: 'sku', id: redSock.id },
          { object: 'products_collection', id: acme.id },
          { object: 'product', id: 'prod_not_in_catalog' },
        ],
        excluded: [],
      },
    });
    await voucher('NEEDSSOCK', { rules: { 1: { name: 'order.items.any', conditions: { $is: [{ object: 'product', id: sock.id }] } } } });
    const cart = {
      items: [
        { product_id: sock.id, source_id: 'sock', related_object: 'product', quantity: 1, price: 200 },
        { sku_id: redSock.id, quantity: 1, price: 300 },
        { product_id: shoe.id, quantity: 1 },
        { product_id: hat.id, quantity: 1 },
        { product_id: 'prod_not_in_catalog', quantity: 1, price: 80 },
      ],
    };
    const before = await validate('SOCK50', cart);
    expect(before.order?.items?.map((i) => i.discount_amount ?? 0)).toEqual([100, 150, 500, 0, 40]);
    expect((await validate('NEEDSSOCK', { items: [{ product_id: sock.id, quantity: 1, price: 200 }] })).status).toBe('APPLICABLE');

    // Deleted to the bin (its SKU with it): a line sending its id (and price) is matched by nothing, every time.
    expect((await api.call('delete-product', { params: { productId: sock.id } })).status).toBe(204);
    for (let n = 0; n < 2; n += 1) {
      const after = await validate('SOCK50', cart);
      expect(after.status).toBe('APPLICABLE');
      expect(after.order?.items?.map((i) => i.discount_amount ?? 0)).toEqual([0, 0, 500, 0, 40]);
      const only = await validate('NEEDSSOCK', { items: [{ product_id: sock.id, quantity: 1, price: 200 }] });
      expect(only).toMatchObject({ status: 'INAPPLICABLE', result: { error: { key: 'order_rules_violated' } } });
    }
    // Deleted for good (force): the same.
    const boot = await ok('create-product', { json: { name: 'Boot', price: 900 } });
    await voucher('BOOT50', { applicable_to: { included: [{ object: 'product', id: boot.id }], excluded: [] } });
    expect((await api.call('delete-product', { params: { productId: boot.id }, query: 'force=true' })).status).toBe(204);
    const gone = await validate('BOOT50', {
      items: [
        { product_id: boot.id, quantity: 1, price: 900 },
        { product_id: shoe.id, quantity: 1 },
      ],
    });
    expect(gone).toMatchObject({ status: 'INAPPLICABLE', result: { error: { key: 'order_rules_violated' } } });
  });

  it('a redemption discounts the collection’s lines at catalog prices and stores the order with them', async () => {
    const { api, ok, voucher, shop } = await setup();
    const { shoe, hat, acme } = await shop();
    await voucher('ACME50', { applicable_to: { included: [{ object: 'products_collection', id: acme.id }], excluded: [] } });
    const reply = await api.call('redeem-stacked-discounts', {
      json: {
        redeemables: [{ object: 'voucher', id: 'ACME50' }],
        order: {
          items: [
            { product_id: shoe.id, quantity: 1 },
            { product_id: hat.id, quantity: 1 },
          ],
        },
      },
    });
    expect(reply.status).toBe(200);
    const order = (reply.json as { order: { id: string; amount: number; total_discount_amount: number } }).order;
    expect([order.amount, order.total_discount_amount]).toEqual([1400, 500]);
    const stored = (await ok('get-order', { params: { orderId: order.id } })) as unknown as { items: Line[] };
    expect(stored.items.map((i) => [i.price, i.amount])).toEqual([
      [1000, 1000],
      [400, 400],
    ]);
  });

  it('qualifications read the same rules: the collection voucher qualifies only for a cart with a collection line', async () => {
    const { api, voucher, shop } = await setup();
    const { shoe, hat, acme } = await shop();
    await voucher('ACME50', { applicable_to: { included: [{ object: 'products_collection', id: acme.id }], excluded: [] } });
    const qualify = async (items: Json[]) => {
      const reply = await api.call('check-eligibility', { json: { order: { items } } });
      expect(reply.status).toBe(200);
      return (reply.json as { redeemables: { data: { id: string; order?: { total_discount_amount?: number } }[] } }).redeemables.data;
    };
    const found = (await qualify([{ product_id: shoe.id, quantity: 1 }])).find((r) => r.id === 'ACME50');
    expect(found?.order?.total_discount_amount).toBe(500);
    expect((await qualify([{ product_id: hat.id, quantity: 1 }])).map((r) => r.id)).not.toContain('ACME50');
  });

  it('excluded collections, cheapest-of-a-collection, and order.items.any on a collection', async () => {
    const { voucher, validate, shop } = await setup();
    const { shoe, sock, hat, acme } = await shop();
    await voucher('NOTACME', { applicable_to: { included: [], excluded: [{ object: 'products_collection', id: acme.id }] } });
    await voucher('CHEAPACME', { applicable_to: { included: [{ object: 'products_collection', id: acme.id, effect: 'APPLY_TO_CHEAPEST' }], excluded: [] } });
    await voucher('NEEDSACME', {
      rules: { 1: { name: 'order.items.any', conditions: { $is: [{ object: 'products_collection', id: acme.id }] } } },
    });
    const cart = {
      items: [
        { product_id: shoe.id, quantity: 1 },
        { product_id: sock.id, quantity: 2 },
        { product_id: hat.id, quantity: 1 },
      ],
    };
    expect((await validate('NOTACME', cart)).order?.items?.map((i) => i.discount_amount ?? 0)).toEqual([0, 0, 200]);
    expect((await validate('CHEAPACME', cart)).order?.items?.map((i) => i.discount_amount ?? 0)).toEqual([0, 100, 0]);
    expect((await validate('NEEDSACME', cart)).status).toBe('APPLICABLE');
    const noAcme = await validate('NEEDSACME', { items: [{ product_id: hat.id, quantity: 1 }] });
    expect(noAcme).toMatchObject({ status: 'INAPPLICABLE', result: { error: { key: 'order_rules_violated' } } });
  });

  it('a STATIC collection of a SKU covers that SKU’s lines only', async () => {
    const { ok, collection, voucher, validate, shop } = await setup();
    const { sock, redSock } = await shop();
    const blue = await ok('create-sku', { params: { productId: sock.id }, json: { sku: 'Blue sock', price: 260 } });
    const picked = await collection({ type: 'STATIC', name: 'Red only', products: [{ id: redSock.id, product_id: sock.id, object: 'sku' }] });
    await voucher('RED50', { applicable_to: { included: [{ object: 'products_collection', id: picked.id }], excluded: [] } });
    const reply = await validate('RED50', {
      items: [
        { sku_id: redSock.id, quantity: 1 },
        { sku_id: blue.id, quantity: 1 },
        { product_id: sock.id, quantity: 1 },
      ],
    });
    expect(reply.order?.items?.map((i) => i.discount_amount ?? 0)).toEqual([125, 0, 0]);
  });
});
