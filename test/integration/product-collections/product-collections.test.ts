import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { collectionMember } from '../../../lib/db/entities.js';
import { MAX_COLLECTIONS_PER_PROJECT } from '../../../lib/product-collections/product-collection.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 9, 5, 10, 0, 0);

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const product = async (json: unknown) => (await api.call('create-product', { json })).json as { id: string };
  const create = (json: unknown) => api.call('create-product-collection', { json });
  const get = (productCollectionId: string) => api.call('get-product-collection', { params: { productCollectionId } });
  const put = (productCollectionId: string, json: unknown) => api.call('put-product-collection', { params: { productCollectionId }, json });
  const remove = (productCollectionId: string) => api.call('delete-product-collection', { params: { productCollectionId } });
  const list = (query = '') => api.call('list-product-collections', { query });
  const members = (productCollectionId: string, query = '') => api.call('list-products-in-collection', { params: { productCollectionId }, query });
  /** The ids a collection lists (all pages of up to 100). */
  const memberIds = async (id: string) => ((await members(id, 'limit=100')).json.data as { id: string }[]).map((m) => m.id).sort();
  return { clock, runtime, api, pair, product, create, get, put, remove, list, members, memberIds };
}

describe('product collections: STATIC', () => {
  it('picks products and SKUs by id, lists them with their products, and refuses an unknown id with 404', async () => {
    const { api, product, create, get, members } = await setup();
    const shoe = await product({ name: 'Shoe', price: 100 });
    const hat = await product({ name: 'Hat' });
    const sku = (await api.call('create-sku', { params: { productId: hat.id }, json: { sku: 'Red hat', price: 50 } })).json as { id: string };
    const made = await create({
      type: 'STATIC',
      name: 'Picked',
      products: [
        { id: shoe.id, object: 'product' },
        { id: sku.id, product_id: hat.id, object: 'sku' },
        { id: shoe.id, object: 'product' },
      ],
    });
    expect(made.status).toBe(200);
    const expected = {
      id: expect.stringMatching(/^pc_/),
      name: 'Picked',
      type: 'STATIC',
      products: [
        { id: shoe.id, object: 'product' },
        { id: sku.id, product_id: hat.id, object: 'sku' },
      ].sort((a, b) => a.id.localeCompare(b.id)),
      created_at: new Date(at).toISOString(),
      object: 'products_collection',
    };
    expect(made.json).toEqual(expected);
    const id = made.json.id as string;
    expect((await get(id)).json).toEqual(expected);

    const page = await members(id);
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ object: 'list', data_ref: 'data', total: 2 });
    const data = page.json.data as Record<string, unknown>[];
    expect(data.find((d) => d.id === shoe.id)).toMatchObject({ object: 'product', name: 'Shoe', price: 100 });
    expect(data.find((d) => d.id === sku.id)).toMatchObject({
      object: 'sku',
      sku: 'Red hat',
      product_id: hat.id,
      product: { id: hat.id, name: 'Hat', object: 'product' },
    });

    const unknown = await create({ type: 'STATIC', name: 'Bad', products: [{ id: 'prod_nope', object: 'product' }] });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'product', resource_id: 'prod_nope' });
    const wrongParent = await create({ type: 'STATIC', name: 'Bad', products: [{ id: sku.id, product_id: shoe.id, object: 'sku' }] });
    expect(wrongParent.status).toBe(404);
    expect(wrongParent.json).toMatchObject({ resource_type: 'sku', resource_id: sku.id });
  });

  it('loses a product and its SKUs when they are deleted', async () => {
    const { api, product, create, get, memberIds } = await setup();
    const shoe = await product({ name: 'Shoe' });
    const hat = await product({ name: 'Hat' });
    const sku = (await api.call('create-sku', { params: { productId: hat.id }, json: { sku: 'Red hat' } })).json as { id: string };
    const other = (await api.call('create-sku', { params: { productId: hat.id }, json: { sku: 'Blue hat' } })).json as { id: string };
    const id = (
      await create({
        type: 'STATIC',
        name: 'Picked',
        products: [
          { id: shoe.id, object: 'product' },
          { id: sku.id, object: 'sku' },
          { id: other.id, object: 'sku' },
        ],
      })
    ).json.id as string;
    expect((await api.call('delete-sku', { params: { productId: hat.id, skuId: other.id } })).status).toBe(204);
    expect(await memberIds(id)).toEqual([shoe.id, sku.id].sort());
    expect((await api.call('delete-product', { params: { productId: hat.id }, query: 'force=true' })).status).toBe(204);
    expect(await memberIds(id)).toEqual([shoe.id]);
    expect((await get(id)).json.products).toEqual([{ id: shoe.id, object: 'product' }]);
  });
});

describe('product collections: AUTO_UPDATE', () => {
  it('takes the products that match at create, then follows products as they are created, changed and deleted', async () => {
    const { api, product, create, get, memberIds } = await setup();
    const red = await product({ name: 'Red shoe', metadata: { color: 'red' }, price: 500 });
    await product({ name: 'Blue shoe', metadata: { color: 'blue' }, price: 500 });
    const filter = { junction: 'and', 'metadata.color': { conditions: { $in: ['red'] } }, price: { conditions: { $more_than_equal: [100] } } };
    const made = await create({ type: 'AUTO_UPDATE', name: 'Red', filter });
    expect(made.status).toBe(200);
    expect(made.json).toEqual({
      id: expect.stringMatching(/^pc_/),
      name: 'Red',
      type: 'AUTO_UPDATE',
      filter,
      created_at: new Date(at).toISOString(),
      object: 'products_collection',
    });
    const id = made.json.id as string;
    expect(await memberIds(id)).toEqual([red.id]);

    const later = await product({ name: 'Red hat', metadata: { color: 'red' }, price: 200 });
    expect(await memberIds(id)).toEqual([red.id, later.id].sort());
    // Changed so it no longer matches: it leaves; changed back: it joins again.
    await api.call('update-product', { params: { productId: red.id }, json: { price: 50 } });
    expect(await memberIds(id)).toEqual([later.id]);
    await api.call('update-product', { params: { productId: red.id }, json: { price: 150 } });
    expect(await memberIds(id)).toEqual([red.id, later.id].sort());
    // The upsert of POST /v1/products changes membership too.
    await api.call('create-product', { json: { id: later.id, metadata: { color: 'green' } } });
    expect(await memberIds(id)).toEqual([red.id]);
    await api.call('delete-product', { params: { productId: red.id } });
    expect(await memberIds(id)).toEqual([]);
    expect((await get(id)).json).not.toHaveProperty('products');
  });

  it('a filter change refills the collection; a filter it cannot evaluate is 400 naming it', async () => {
    const { product, create, put, memberIds } = await setup();
    const a = await product({ name: 'Alpha' });
    const b = await product({ name: 'Beta' });
    const id = (await create({ type: 'AUTO_UPDATE', name: 'A', filter: { junction: 'and', name: { conditions: { $starts_with: ['A'] } } } })).json.id as string;
    expect(await memberIds(id)).toEqual([a.id]);
    const changed = await put(id, { name: 'B', filter: { junction: 'or', name: { conditions: { $is: ['Beta'] } } } });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ name: 'B', filter: { junction: 'or', name: { conditions: { $is: ['Beta'] } } } });
    expect(await memberIds(id)).toEqual([b.id]);

    const op = await create({ type: 'AUTO_UPDATE', name: 'X', filter: { junction: 'and', created_at: { conditions: { $is_days_ago: [3] } } } });
    expect(op.status).toBe(400);
    expect(JSON.stringify(op.json)).toContain('$is_days_ago');
    const field = await create({ type: 'AUTO_UPDATE', name: 'X', filter: { junction: 'and', weight: { conditions: { $is: ['1'] } } } });
    expect(field.status).toBe(400);
    expect(JSON.stringify(field.json)).toContain('weight');
  });
});

describe('product collections: list, rename, delete', () => {
  it('lists by creation with the total, renames, and deletes a collection with its membership items', async () => {
    const { clock, runtime, pair, product, create, list, put, remove, get } = await setup();
    const p = await product({ name: 'P' });
    const first = (await create({ type: 'STATIC', name: 'One', products: [{ id: p.id, object: 'product' }] })).json.id as string;
    clock.advance(1000);
    const second = (await create({ type: 'AUTO_UPDATE', name: 'Two', filter: { junction: 'and' } })).json.id as string;
    const page = await list();
    expect(page.json).toMatchObject({ object: 'list', data_ref: 'data', total: 2 });
    expect((page.json.data as { id: string }[]).map((c) => c.id)).toEqual([first, second]);
    expect(((await list('order=-created_at&limit=1')).json.data as { id: string }[]).map((c) => c.id)).toEqual([second]);

    expect((await put(first, { name: 'Uno' })).json).toMatchObject({ name: 'Uno', products: [{ id: p.id, object: 'product' }] });
    expect((await put(first, { name: 'Uno', filter: { junction: 'and' } })).status).toBe(400);

    expect((await remove(second)).status).toBe(204);
    expect((await get(second)).status).toBe(404);
    expect((await remove(second)).status).toBe(404);
    const left = await collectionMember.query(runtime, { key: [pair.project_id, second] }, { consistent: true });
    expect(left).toEqual([]);
    expect((await list()).json.total).toBe(1);
  });

  it(`caps collections at ${MAX_COLLECTIONS_PER_PROJECT}: of 20 parallel creates past ${MAX_COLLECTIONS_PER_PROJECT - 5}, exactly 5 succeed`, async () => {
    const { create, list } = await setup();
    for (let i = 0; i < MAX_COLLECTIONS_PER_PROJECT - 5; i += 1) expect((await create({ type: 'STATIC', name: `c${i}` })).status).toBe(200);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ type: 'STATIC', name: `race${i}` })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
    expect(replies.filter((r) => r.status === 400)).toHaveLength(15);
    expect((await list()).json.total).toBe(MAX_COLLECTIONS_PER_PROJECT);
  });
});
