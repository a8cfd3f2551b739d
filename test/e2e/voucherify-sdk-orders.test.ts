import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's orders calls against the whole local runtime, with a jobs queue of this file's own. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-orders');
  const pair = await createProject(testRuntime(), 'sdk orders project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: orders', () => {
  it('creates, reads, updates and lists orders with their figures', async () => {
    const created = await client.orders.create({
      source_id: 'sdk-order-1',
      customer: { source_id: 'sdk-shopper' },
      items: [
        { product_id: 'prod_sdk', quantity: 2, price: 2500 },
        { source_id: 'sku-sdk', related_object: 'sku', quantity: 1, price: 1000 },
      ],
      metadata: { channel: 'sdk' },
    } as never);
    expect(created).toMatchObject({
      source_id: 'sdk-order-1',
      status: 'CREATED',
      amount: 6000,
      initial_amount: 6000,
      discount_amount: 0,
      total_discount_amount: 0,
      total_amount: 6000,
      metadata: { channel: 'sdk' },
      object: 'order',
    });
    expect(created.items?.map((i) => i.amount)).toEqual([5000, 1000]);
    const shopper = (await client.customers.get('sdk-shopper')) as { id: string };
    expect(created).toMatchObject({ customer_id: shopper.id, customer: { id: shopper.id, object: 'customer' } });

    expect(await client.orders.get(created.id)).toEqual(created);
    expect(await client.orders.get('sdk-order-1')).toEqual(created);

    const paid = await client.orders.update({ id: created.id, status: 'PAID', items: [{ quantity: 3, price: 2500 }] } as never);
    expect(paid).toMatchObject({ id: created.id, status: 'PAID', amount: 7500, total_amount: 7500 });
    const bySource = await client.orders.update({ source_id: 'sdk-order-1', metadata: { channel: 'sdk', paid: true } } as never);
    expect(bySource).toMatchObject({ id: created.id, status: 'PAID', metadata: { channel: 'sdk', paid: true } });

    await client.orders.create({ source_id: 'sdk-order-2', amount: 300 } as never);
    const list = await client.orders.list({ limit: 1, page: 1 } as never);
    expect(list).toMatchObject({ object: 'list', data_ref: 'orders', total: 2 });
    expect(list.orders.map((o) => o.source_id)).toEqual(['sdk-order-2']);
    const oldestFirst = await client.orders.list({ limit: 10, order: 'created_at' } as never);
    expect(oldestFirst.orders.map((o) => o.source_id)).toEqual(['sdk-order-1', 'sdk-order-2']);

    await expect(client.orders.get('no-such-order')).rejects.toMatchObject({ code: 404, key: 'not_found' });
  });
});
