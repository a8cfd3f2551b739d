import { describe, expect, it } from 'vitest';
import { MAX_ORDER_BYTES } from '../../../lib/db/item-size.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

// Issue 41 item 5: orders and redemptions within every field's bound that DynamoDB cannot store answer a named 400, not 500.

type Json = Record<string, unknown>;

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const vouchers = async (n: number) => {
    const codes = Array.from({ length: n }, (_, i) => `SIZE${i}`);
    for (const code of codes) {
      const reply = await api.call('create-voucher', { params: { code }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 1 } } });
      if (reply.status !== 200) throw new Error(`voucher ${code}: ${JSON.stringify(reply.json)}`);
    }
    return codes.map((id) => ({ object: 'voucher', id }));
  };
  return { api, vouchers };
}

/** `count` order lines whose product ids are `idLength` characters long. */
const lines = (count: number, idLength: number) =>
  Array.from({ length: count }, (_, i) => ({ product_id: `${i}-`.padEnd(idLength, 'p'), quantity: 1, price: 100 }));

const expectRefused = (reply: { status: number; json: unknown }) => {
  expect(reply.status, JSON.stringify(reply.json).slice(0, 300)).toBe(400);
  expect(reply.json).toMatchObject({ code: 400, key: 'invalid_payload', message: 'Invalid payload', details: expect.any(String) });
};

describe('stored size bounds', () => {
  it('refuses on POST /v1/orders an order larger than an order may be stored (424 KB: was a 500 from DynamoDB)', async () => {
    const { api } = await setup();
    const items = Array.from({ length: 500 }, (_, i) => ({ product_id: `${i}-`.padEnd(400, 'p'), sku_id: `${i}-`.padEnd(400, 's'), quantity: 1, price: 100 }));
    expect(JSON.stringify({ items }).length).toBeGreaterThan(400_000);
    const reply = await api.call('create-order', { json: { items, customer: { source_id: 'size-buyer' } } });
    expectRefused(reply);
    expect((reply.json as Json).details).toContain(String(MAX_ORDER_BYTES));
    // Refused before anything is written: its customer was not upserted either.
    expect((await api.call('get-customer', { params: { customerId: 'size-buyer' } })).status).toBe(404);
    // PUT is bounded the same way.
    const small = await api.call('create-order', { json: { items: lines(1, 10) } });
    expect(small.status).toBe(200);
    expectRefused(await api.call('update-order', { params: { orderId: (small.json as Json).id as string }, json: { items } }));
  });

  it('refuses a redemption of a 500-line order of 250-character product ids (147 KB: was a 500 on every redemption route)', async () => {
    const { api, vouchers } = await setup();
    const redeemables = await vouchers(1);
    const order = { items: lines(500, 250) };
    expect(JSON.stringify(order).length).toBeGreaterThan(140_000);
    expectRefused(await api.call('redeem-stacked-discounts', { json: { redeemables, order } }));
  });

  it('refuses 20 redeemables on a 122 KB order (was over the 4 MB transaction payload)', async () => {
    const { api, vouchers } = await setup();
    const redeemables = await vouchers(20);
    const order = { items: lines(500, 200) };
    expect(JSON.stringify(order).length).toBeGreaterThan(120_000);
    expectRefused(await api.call('redeem-stacked-discounts', { json: { redeemables, order } }));
  });

  it('stores an order just under its bound, and stores and redeems a 500-line order of 150-character ids (96 KB)', async () => {
    const { api, vouchers } = await setup();
    // About 294,000 bytes stored, under MAX_ORDER_BYTES.
    const largest = await api.call('create-order', { json: { items: lines(500, 440) } });
    expect(largest.status, JSON.stringify(largest.json).slice(0, 300)).toBe(200);
    const redeemables = await vouchers(1);
    const order = { items: lines(500, 150) };
    const created = await api.call('create-order', { json: order });
    expect(created.status, JSON.stringify(created.json).slice(0, 300)).toBe(200);
    const redeemed = await api.call('redeem-stacked-discounts', { json: { redeemables, order } });
    expect(redeemed.status, JSON.stringify(redeemed.json).slice(0, 300)).toBe(200);
  });
});
