import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's product collection calls, against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-product-collections');
  const pair = await createProject(testRuntime(), 'sdk product collections project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: product collections', () => {
  it('creates, gets, lists, lists the products of and deletes collections through client.productCollections', async () => {
    const shoe = await client.products.create({ name: 'Shoe', metadata: { color: 'red' } });
    const hat = await client.products.create({ name: 'Hat', metadata: { color: 'blue' } });
    const sku = await client.products.createSku(hat.id, { sku: 'Blue hat' });

    const picked = await client.productCollections.create({
      type: 'STATIC',
      name: 'Picked',
      products: [
        { id: shoe.id, object: 'product' },
        { id: sku.id, product_id: hat.id, object: 'sku' },
      ],
    });
    expect(picked).toMatchObject({ type: 'STATIC', name: 'Picked', object: 'products_collection' });
    expect(picked.id).toMatch(/^pc_/);
    expect(await client.productCollections.get(picked.id)).toEqual(picked);

    const red = await client.productCollections.create({
      type: 'AUTO_UPDATE',
      name: 'Red',
      filter: { junction: 'and', 'metadata.color': { conditions: { $in: ['red'] } } },
    });
    const inRed = await client.productCollections.listProducts(red.id);
    expect(inRed.total).toBe(1);
    expect(inRed.data.map((p) => p.id)).toEqual([shoe.id]);
    const inPicked = await client.productCollections.listProducts(picked.id, { limit: 10 });
    expect(inPicked.data.map((p) => p.id).sort()).toEqual([shoe.id, sku.id].sort());

    const all = await client.productCollections.list({ limit: 10 });
    expect(all.total).toBe(2);
    expect(all.data.map((c) => c.id)).toEqual([picked.id, red.id]);

    await client.productCollections.delete(red.id);
    await expect(client.productCollections.get(red.id)).rejects.toMatchObject({ code: 404, key: 'not_found' });
    expect((await client.productCollections.list()).total).toBe(1);
  });
});
