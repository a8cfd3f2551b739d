import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { MAX_SKUS_PER_PRODUCT } from '../../../lib/products/product.js';
import { MAX_LIST_REPLY_BYTES } from '../../../lib/products/product.service.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 9, 5, 10, 0, 0);
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const create = (json: unknown) => api.call('create-product', { json });
  const get = (productId: string) => api.call('get-product', { params: { productId } });
  const update = (productId: string, json: unknown) => api.call('update-product', { params: { productId }, json });
  const remove = (productId: string, query = '') => api.call('delete-product', { params: { productId }, query });
  const list = (query = '') => api.call('list-products', { query });
  const createSku = (productId: string, json: unknown) => api.call('create-sku', { params: { productId }, json });
  const getSku = (skuId: string) => api.call('get-sku', { params: { skuId } });
  const updateSku = (productId: string, skuId: string, json: unknown) => api.call('update-sku', { params: { productId, skuId }, json });
  const removeSku = (productId: string, skuId: string, query = '') => api.call('delete-sku', { params: { productId, skuId }, query });
  const listSkus = (productId: string, query = '') => api.call('list-SKUs-in-product', { params: { productId }, query });
  const bin = async () => (await api.call('list-bin-entries', { query: 'limit=100' })).json.data as Record<string, unknown>[];
  return { clock, runtime, api, create, get, update, remove, list, createSku, getSku, updateSku, removeSku, listSkus, bin };
}

const emptySkus = { object: 'list', data_ref: 'data', data: [], total: 0 };

describe('products: create, get, update, list, delete', () => {
  it('creates a product, reads it by id and by source_id with its SKUs, and updates only the fields sent', async () => {
    const { clock, create, get, update } = await setup();
    const made = await create({
      source_id: 'shoe-1',
      name: 'Runner',
      price: 12_900,
      attributes: ['color', 'size'],
      metadata: { brand: 'Acme' },
      image_url: 'https://img/1.png',
    });
    expect(made.status).toBe(200);
    expect(made.json).toEqual({
      id: expect.stringMatching(/^prod_/),
      source_id: 'shoe-1',
      name: 'Runner',
      price: 12_900,
      attributes: ['color', 'size'],
      metadata: { brand: 'Acme' },
      image_url: 'https://img/1.png',
      created_at: iso(at),
      updated_at: null,
      object: 'product',
    });
    const id = made.json.id as string;
    expect((await get(id)).json).toEqual({ ...made.json, skus: emptySkus });
    expect((await get('shoe-1')).json).toEqual({ ...made.json, skus: emptySkus });

    clock.advance(MINUTE);
    const updated = await update('shoe-1', { price: 9_900, metadata: { brand: 'Acme', sale: true }, name: null, unknown_field: 1 });
    expect(updated.status).toBe(200);
    expect(updated.json).toEqual({ ...made.json, price: 9_900, metadata: { brand: 'Acme', sale: true }, updated_at: iso(at + MINUTE) });
    expect((await get(id)).json).toMatchObject({ price: 9_900, name: 'Runner', updated_at: iso(at + MINUTE) });
  });

  it('makes a product without a source_id with null fields, and answers 404 for ids and source ids it does not have', async () => {
    const { create, get, update, remove } = await setup();
    const made = await create({});
    expect(made.json).toMatchObject({ source_id: null, name: null, price: null, attributes: [], metadata: {}, image_url: null });
    for (const reply of [
      await get('prod_nothing'),
      await update('prod_nothing', { name: 'x' }),
      await remove('prod_nothing'),
      await create({ id: 'prod_nothing' }),
    ]) {
      expect(reply.status).toBe(404);
      expect(reply.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'product', resource_id: 'prod_nothing' });
    }
  });

  it('upserts: a create with an existing source_id or id updates that product and keeps its id', async () => {
    const { clock, create, list } = await setup();
    const first = await create({ source_id: 'sock', name: 'Sock', price: 500 });
    clock.advance(MINUTE);
    const again = await create({ source_id: 'sock', price: 450 });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ ...first.json, price: 450, updated_at: iso(at + MINUTE) });
    const byId = await create({ id: first.json.id, source_id: 'ignored', name: 'Sock 2' });
    expect(byId.json).toMatchObject({ id: first.json.id, source_id: 'sock', name: 'Sock 2' });
    // The same values again: nothing changes, not even updated_at.
    clock.advance(MINUTE);
    expect((await create({ source_id: 'sock', name: 'Sock 2' })).json).toMatchObject({ updated_at: iso(at + MINUTE) });
    expect((await list()).json.total).toBe(1);
  });

  it('makes one product of 20 parallel creates of one source_id, and all of them answer with it', async () => {
    const { create, list } = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ source_id: 'race', name: 'Racer', metadata: { n: i % 2 } })));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(replies.map((r) => r.json.id));
    expect(ids.size).toBe(1);
    const listed = await list('limit=100');
    expect(listed.json.total).toBe(1);
    expect((listed.json.products as unknown[]).length).toBe(1);
  });

  it('lists products oldest first with their SKUs, pages them, reverses with order=-created_at and bounds them by creation', async () => {
    const { clock, create, createSku, list } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await create({ source_id: `p${i}`, name: `P${i}` })).json.id as string);
      clock.advance(MINUTE);
    }
    await createSku(ids[1] ?? '', { source_id: 'p1-a', sku: 'A' });
    const all = await list();
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ object: 'list', data_ref: 'products', total: 5 });
    const products = all.json.products as { id: string; skus: { total: number; data: { source_id: string }[] } }[];
    expect(products.map((p) => p.id)).toEqual(ids);
    expect(products[1]?.skus).toMatchObject({ object: 'list', data_ref: 'data', total: 1, data: [{ source_id: 'p1-a' }] });
    expect(products[0]?.skus).toEqual(emptySkus);

    const names = async (q: string) => ((await list(q)).json.products as { name: string }[]).map((p) => p.name);
    expect(await names('limit=2&page=2')).toEqual(['P2', 'P3']);
    expect(await names('limit=2&page=3')).toEqual(['P4']);
    expect(await names('order=-created_at&limit=2')).toEqual(['P4', 'P3']);
    const bounded = await list(`start_date=${iso(at + MINUTE)}&end_date=${iso(at + 3 * MINUTE)}`);
    expect((bounded.json.products as { name: string }[]).map((p) => p.name)).toEqual(['P1', 'P2', 'P3']);
    expect(bounded.json.total).toBe(3);
    // A start after the end bounds nothing: an empty page, not an error.
    expect((await list(`start_date=${iso(at + 3 * MINUTE)}&end_date=${iso(at + MINUTE)}`)).json).toMatchObject({ products: [], total: 0 });
    expect((await list('order=updated_at')).status).toBe(400);
    expect((await list('limit=101')).status).toBe(400);
  });

  it('moves a product and its SKUs to the bin and frees their source ids; force=true leaves no bin entries', async () => {
    const { create, createSku, get, getSku, remove, bin, list } = await setup();
    const product = (await create({ source_id: 'bag', name: 'Bag' })).json.id as string;
    const sku = (await createSku(product, { source_id: 'bag-red', sku: 'Red' })).json.id as string;
    expect((await remove('bag')).status).toBe(204);
    expect((await get(product)).status).toBe(404);
    expect((await getSku(sku)).status).toBe(404);
    expect((await getSku('bag-red')).status).toBe(404);
    const entries = await bin();
    expect(entries.map((e) => [e.resource_type, e.resource_id, e.resource_name, e.resource_parent_id]).sort()).toEqual([
      ['product', product, 'Bag', null],
      ['sku', sku, 'Red', product],
    ]);
    expect((await list()).json.total).toBe(0);

    // The source ids are free: a create makes a new product and SKU.
    const again = (await create({ source_id: 'bag' })).json.id as string;
    expect(again).not.toBe(product);
    expect((await createSku(again, { source_id: 'bag-red' })).status).toBe(200);
    expect((await remove(again, 'force=true')).status).toBe(204);
    expect(await bin()).toHaveLength(2);
    expect((await remove(again)).status).toBe(404);
  });

  it('deletes every SKU of a product with more SKUs than one transaction holds, and more SKU metadata than one item holds', async () => {
    const { create, createSku, getSku, remove, bin } = await setup();
    const product = (await create({ source_id: 'many' })).json.id as string;
    const skus: string[] = [];
    // 30 SKUs of 15 KB each: their snapshots together are over DynamoDB's 400 KB item limit.
    const metadata = { notes: 'x'.repeat(15_000) };
    for (let i = 0; i < 30; i += 1) skus.push((await createSku(product, { source_id: `many-${i}`, metadata })).json.id as string);
    expect((await remove(product)).status).toBe(204);
    for (const id of [skus[0], skus[24], skus[29]]) expect((await getSku(id ?? '')).status).toBe(404);
    expect((await getSku('many-29')).status).toBe(404);
    expect((await bin()).filter((e) => e.resource_type === 'sku')).toHaveLength(30);
    expect((await createSku((await create({})).json.id as string, { source_id: 'many-0' })).status).toBe(200);
  });
});

describe('products: the size of a list reply', () => {
  it('refuses a page of products whose SKUs weigh more than a Lambda reply holds with 400 naming the limit, and serves a smaller page', async () => {
    const { create, createSku, list } = await setup();
    // Two products of 100 SKUs, each SKU ~33 KB: ~6.6 MB together, ~3.3 MB each.
    const big = { metadata: { notes: 'm'.repeat(16_000) }, attributes: { text: 'a'.repeat(16_000) } };
    for (const source of ['heavy-1', 'heavy-2']) {
      const p = (await create({ source_id: source })).json.id as string;
      for (let i = 0; i < MAX_SKUS_PER_PRODUCT; i += 20) {
        const replies = await Promise.all(Array.from({ length: 20 }, (_, j) => createSku(p, { source_id: `${source}-${i + j}`, ...big })));
        expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
      }
    }
    const whole = await list('limit=2');
    expect(whole.status).toBe(400);
    expect(whole.json).toMatchObject({ key: 'invalid_query_params', details: expect.stringContaining(String(MAX_LIST_REPLY_BYTES)) });
    const one = await list('limit=1&page=2');
    expect(one.status).toBe(200);
    expect((one.json.products as { skus: { total: number } }[])[0]?.skus.total).toBe(MAX_SKUS_PER_PRODUCT);
  }, 120_000);
});

describe('SKUs: create, get, list, update, delete', () => {
  it('adds SKUs to a product, reads them by id and source_id, and shows them in the product', async () => {
    const { clock, create, createSku, getSku, get } = await setup();
    const product = (await create({ source_id: 'shirt', attributes: ['color'] })).json.id as string;
    const made = await createSku('shirt', {
      source_id: 'shirt-red',
      sku: 'Red shirt',
      price: 1_300,
      currency: 'USD',
      attributes: { color: 'red', rank: 1 },
      metadata: { x: true },
    });
    expect(made.status).toBe(200);
    expect(made.json).toEqual({
      id: expect.stringMatching(/^sku_/),
      source_id: 'shirt-red',
      product_id: product,
      sku: 'Red shirt',
      price: 1_300,
      currency: 'USD',
      attributes: { color: 'red', rank: 1 },
      image_url: null,
      metadata: { x: true },
      created_at: iso(at),
      updated_at: null,
      object: 'sku',
    });
    expect((await getSku(made.json.id as string)).json).toEqual(made.json);
    expect((await getSku('shirt-red')).json).toEqual(made.json);
    clock.advance(MINUTE);
    const blue = await createSku(product, { sku: 'Blue shirt' });
    expect((await get(product)).json.skus).toEqual({ object: 'list', data_ref: 'data', data: [made.json, blue.json], total: 2 });
  });

  it('upserts a SKU by source_id or id, refuses a source_id of another product with 409 and an unknown id with 404', async () => {
    const { clock, create, createSku, listSkus } = await setup();
    const a = (await create({ source_id: 'a' })).json.id as string;
    const b = (await create({ source_id: 'b' })).json.id as string;
    const first = await createSku(a, { source_id: 'a-1', price: 100 });
    clock.advance(MINUTE);
    const again = await createSku(a, { source_id: 'a-1', price: 90 });
    expect(again.json).toEqual({ ...first.json, price: 90, updated_at: iso(at + MINUTE) });
    expect((await createSku(a, { id: first.json.id, sku: 'Named' })).json).toMatchObject({ id: first.json.id, sku: 'Named' });
    expect((await listSkus(a)).json.total).toBe(1);
    const taken = await createSku(b, { source_id: 'a-1' });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ key: 'duplicate_found', resource_type: 'sku' });
    expect((await createSku(b, { id: first.json.id })).json).toMatchObject({ code: 404, resource_type: 'sku' });
    expect((await createSku('nothing', { sku: 'x' })).json).toMatchObject({ code: 404, resource_type: 'product', resource_id: 'nothing' });
  });

  it('lists a product\u2019s SKUs in pages, by creation or last change, within creation bounds', async () => {
    const { clock, create, createSku, updateSku, listSkus } = await setup();
    const p = (await create({})).json.id as string;
    for (let i = 0; i < 4; i += 1) {
      await createSku(p, { source_id: `s${i}` });
      clock.advance(MINUTE);
    }
    await updateSku(p, 's0', { price: 1 });
    const ids = async (q: string) => ((await listSkus(p, q)).json.skus as { source_id: string }[]).map((s) => s.source_id);
    const all = await listSkus(p);
    expect(all.json).toMatchObject({ object: 'list', data_ref: 'skus', total: 4 });
    expect(await ids('')).toEqual(['s0', 's1', 's2', 's3']);
    expect(await ids('limit=3&page=2')).toEqual(['s3']);
    expect(await ids('order=-created_at')).toEqual(['s3', 's2', 's1', 's0']);
    expect(await ids('order=-updated_at')).toEqual(['s0', 's3', 's2', 's1']);
    expect(await ids(`start_date=${iso(at + MINUTE)}&end_date=${iso(at + 2 * MINUTE)}`)).toEqual(['s1', 's2']);
    expect((await listSkus('nothing')).status).toBe(404);
  });

  it('updates only the fields sent, addressing the SKU by id or source_id within its product', async () => {
    const { clock, create, createSku, updateSku } = await setup();
    const p = (await create({})).json.id as string;
    const other = (await create({})).json.id as string;
    const made = await createSku(p, { source_id: 'u1', sku: 'One', price: 10, attributes: { size: 'M' } });
    clock.advance(MINUTE);
    const updated = await updateSku(p, 'u1', { currency: 'EUR', attributes: { size: 'L' }, source_id: 'ignored' });
    expect(updated.status).toBe(200);
    expect(updated.json).toEqual({ ...made.json, currency: 'EUR', attributes: { size: 'L' }, updated_at: iso(at + MINUTE) });
    expect((await updateSku(other, made.json.id as string, { price: 1 })).json).toMatchObject({ code: 404, resource_type: 'sku' });
    expect((await updateSku(other, 'u1', { price: 1 })).status).toBe(404);
  });

  it('moves a SKU to the bin (or removes it with force=true), frees its source_id and lowers its product\u2019s count', async () => {
    const { create, createSku, getSku, removeSku, listSkus, bin, get } = await setup();
    const p = (await create({ name: 'Hat' })).json.id as string;
    const red = (await createSku(p, { source_id: 'hat-red', sku: 'Red' })).json.id as string;
    const blue = (await createSku(p, { source_id: 'hat-blue' })).json.id as string;
    expect((await removeSku(p, 'hat-red')).status).toBe(204);
    expect((await getSku(red)).status).toBe(404);
    expect((await removeSku(p, red)).status).toBe(404);
    expect((await removeSku(p, blue, 'force=true')).status).toBe(204);
    expect(await bin()).toMatchObject([{ resource_type: 'sku', resource_id: red, resource_name: 'Red', resource_parent_id: p }]);
    expect((await listSkus(p)).json.total).toBe(0);
    expect((await get(p)).json.skus).toEqual(emptySkus);
    expect((await createSku(p, { source_id: 'hat-red' })).status).toBe(200);
  });

  it(`refuses a SKU beyond ${MAX_SKUS_PER_PRODUCT} on one product with 400, and takes one again after a delete`, async () => {
    const { create, createSku, removeSku } = await setup();
    const p = (await create({})).json.id as string;
    for (let i = 0; i < MAX_SKUS_PER_PRODUCT; i += 10) {
      const replies = await Promise.all(Array.from({ length: 10 }, (_, j) => createSku(p, { source_id: `cap-${i + j}` })));
      expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    }
    const over = await createSku(p, { source_id: 'cap-over' });
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ key: 'invalid_payload' });
    // An existing SKU is still updated by its source_id.
    expect((await createSku(p, { source_id: 'cap-0', price: 5 })).status).toBe(200);
    expect((await removeSku(p, 'cap-0', 'force=true')).status).toBe(204);
    expect((await createSku(p, { source_id: 'cap-over' })).status).toBe(200);
  });
});
