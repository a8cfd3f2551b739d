import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's product and SKU calls, against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-products');
  const pair = await createProject(testRuntime(), 'sdk products project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: products and SKUs', () => {
  it('creates, reads, updates, lists and deletes a product and its SKUs through client.products', async () => {
    const product = await client.products.create({ source_id: 'sdk-shoe', name: 'Runner', price: 12_900, attributes: ['color'], metadata: { brand: 'Acme' } });
    expect(product).toMatchObject({ source_id: 'sdk-shoe', name: 'Runner', price: 12_900, attributes: ['color'], object: 'product' });
    expect(product.id).toMatch(/^prod_/);
    // The upsert: the same source_id again updates the product.
    expect(await client.products.create({ source_id: 'sdk-shoe', price: 9_900 })).toMatchObject({ id: product.id, price: 9_900 });

    const sku = await client.products.createSku(product.id, {
      sku: 'Red runner',
      source_id: 'sdk-shoe-red',
      price: 9_500,
      currency: 'USD',
      attributes: { color: 'red' },
    });
    expect(sku).toMatchObject({ sku: 'Red runner', source_id: 'sdk-shoe-red', price: 9_500, attributes: { color: 'red' }, object: 'sku' });
    expect(sku.id).toMatch(/^sku_/);
    expect(await client.products.getSku(sku.id)).toMatchObject({ id: sku.id, product_id: product.id });
    // updateSku addresses the SKU by the id (or source_id) in the object it sends.
    expect(await client.products.updateSku(product.id, { id: sku.id, sku: 'Red runner', price: 9_000 })).toMatchObject({ id: sku.id, price: 9_000 });
    expect(await client.products.updateSku('sdk-shoe', { source_id: 'sdk-shoe-red', sku: 'Crimson runner' })).toMatchObject({
      id: sku.id,
      sku: 'Crimson runner',
    });

    const got = await client.products.get('sdk-shoe');
    expect(got).toMatchObject({ id: product.id, skus: { object: 'list', total: 1, data: [{ id: sku.id, sku: 'Crimson runner' }] } });
    // update names the product by id (or source_id) in the object it sends.
    expect(await client.products.update({ id: product.id, name: 'Trail runner' })).toMatchObject({ id: product.id, name: 'Trail runner' });
    expect(await client.products.update({ source_id: 'sdk-shoe', metadata: { brand: 'Other' } })).toMatchObject({
      id: product.id,
      metadata: { brand: 'Other' },
    });

    const skus = await client.products.listSkus(product.id);
    expect(skus).toMatchObject({ object: 'list', total: 1 });
    expect(skus.skus.map((s) => s.id)).toEqual([sku.id]);
    const listed = await client.products.list({ limit: 10, page: 1 });
    expect(listed).toMatchObject({ object: 'list', data_ref: 'products', total: 1 });
    expect(listed.products.map((p) => p.id)).toEqual([product.id]);

    await expect(client.products.deleteSku(product.id, sku.id)).resolves.toBeFalsy();
    await expect(client.products.getSku(sku.id)).rejects.toMatchObject({ code: 404, resource_type: 'sku' });
    await client.products.createSku(product.id, { sku: 'Blue runner', source_id: 'sdk-shoe-blue' });
    await expect(client.products.delete(product.id, { force: true })).resolves.toBeFalsy();
    await expect(client.products.get(product.id)).rejects.toMatchObject({ code: 404, key: 'not_found', resource_type: 'product' });
    await expect(client.products.getSku('sdk-shoe-blue')).rejects.toMatchObject({ code: 404 });
  });
});
