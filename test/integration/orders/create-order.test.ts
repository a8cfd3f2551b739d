import { describe, expect, it } from 'vitest';
import { at, orderItems, setup } from './orders-setup.js';

const zeroDiscounts = {
  discount_amount: 0,
  items_discount_amount: 0,
  total_discount_amount: 0,
  applied_discount_amount: 0,
  items_applied_discount_amount: 0,
  total_applied_discount_amount: 0,
};

describe('POST /v1/orders', () => {
  it('creates an order with its lines and customer, computing the undiscounted figures, and GET returns it by id and source id', async () => {
    const { create, get, api } = await setup();
    const reply = await create({
      source_id: 'ord-1',
      status: 'PAID',
      customer: { source_id: 'alice', name: 'Alice' },
      items: [
        { product_id: 'prod_1', quantity: 2, price: 1500, metadata: { colour: 'red' }, product: { name: 'Shoe', override: true, price: 1500 } },
        { sku_id: 'sku_1', source_id: 'sku-src', related_object: 'sku', amount: 700, sku: { sku: 'S-1', metadata: { size: 'M' } } },
      ],
      metadata: { channel: 'web' },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.id).toMatch(/^ord_/);
    expect(reply.json).toMatchObject({
      source_id: 'ord-1',
      status: 'PAID',
      amount: 3700,
      initial_amount: 3700,
      total_amount: 3700,
      ...zeroDiscounts,
      metadata: { channel: 'web' },
      referrer_id: null,
      created_at: new Date(at).toISOString(),
      updated_at: null,
      object: 'order',
    });
    // No redemption applied yet: left out, as the reference's create example leaves it out.
    expect(reply.json).not.toHaveProperty('redemptions');
    expect(reply.json.items).toEqual([
      {
        product_id: 'prod_1',
        quantity: 2,
        initial_quantity: 2,
        amount: 3000,
        initial_amount: 3000,
        subtotal_amount: 3000,
        discount_amount: 0,
        applied_discount_amount: 0,
        price: 1500,
        product: { override: true, name: 'Shoe', price: 1500 },
        metadata: { colour: 'red' },
        object: 'order_item',
      },
      {
        sku_id: 'sku_1',
        related_object: 'sku',
        source_id: 'sku-src',
        amount: 700,
        initial_amount: 700,
        subtotal_amount: 700,
        discount_amount: 0,
        applied_discount_amount: 0,
        sku: { sku: 'S-1', metadata: { size: 'M' } },
        object: 'order_item',
      },
    ]);
    const customer = await api.call('get-customer', { params: { customerId: 'alice' } });
    expect(customer.json).toMatchObject({ name: 'Alice' });
    expect(reply.json.customer).toEqual({ id: customer.json.id, object: 'customer' });
    expect(reply.json.customer_id).toBe(customer.json.id);
    expect((await get(reply.json.id)).json).toEqual(reply.json);
    expect((await get('ord-1')).json).toEqual(reply.json);
  });

  it('defaults to status CREATED, amount 0 and no lines; an order without source_id gets null', async () => {
    const { create } = await setup();
    const reply = await create({});
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ source_id: null, status: 'CREATED', amount: 0, total_amount: 0, items: [], metadata: {}, customer_id: null });
    expect(reply.json).not.toHaveProperty('customer');
  });

  it('creates a new customer without source_id for a customer known only by email, one per order', async () => {
    const { create, api } = await setup();
    const first = await create({ customer: { email: 'guest@example.com', name: 'Guest' }, amount: 1000 });
    expect(first.status).toBe(200);
    const customerId = first.json.customer_id as string;
    expect(customerId).toMatch(/^cust_/);
    expect(first.json.customer).toEqual({ id: customerId, object: 'customer' });
    const stored = await api.call('get-customer', { params: { customerId } });
    expect(stored.json).toMatchObject({ id: customerId, email: 'guest@example.com', name: 'Guest' });
    expect(stored.json).not.toHaveProperty('source_id');
    const second = await create({ customer: { email: 'guest@example.com' }, amount: 1000 });
    expect(second.status).toBe(200);
    expect(second.json.customer_id).not.toBe(customerId);
  });

  it('keeps an amount sent over the sum of its lines (the lines may be a part of the order)', async () => {
    const { create } = await setup();
    const reply = await create({ amount: 20000, items: [{ quantity: 1, price: 5000 }] });
    expect(reply.json).toMatchObject({ amount: 20000, initial_amount: 20000, total_amount: 20000 });
    expect(reply.json.items[0]).toMatchObject({ amount: 5000 });
  });

  it('upserts by source_id: a second create with it updates the same order with the fields sent', async () => {
    const { create, clock, runtime, projectId } = await setup();
    const first = await create({ source_id: 'cart-7', amount: 1000, metadata: { a: 1 } });
    clock.advance(60_000);
    const second = await create({ source_id: 'cart-7', status: 'PAID' });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ id: first.json.id, status: 'PAID', amount: 1000, metadata: { a: 1 }, updated_at: new Date(at + 60_000).toISOString() });
    const third = await create({ id: first.json.id, status: 'FULFILLED' });
    expect(third.json).toMatchObject({ id: first.json.id, status: 'FULFILLED', source_id: 'cart-7' });
    expect(await orderItems(runtime, projectId)).toBe(1);
  });

  it('makes exactly one order when 20 requests create the same source_id at once', async () => {
    const { runtime, projectId, create, get, api } = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ source_id: 'rush', amount: 100 + i })));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(replies.map((r) => r.json.id));
    expect(ids.size).toBe(1);
    expect(await orderItems(runtime, projectId)).toBe(1);
    const stored = await get('rush');
    expect(replies.map((r) => r.json.amount)).toContain(stored.json.amount);
    expect((await api.call('list-orders')).json).toMatchObject({ total: 1 });
  });

  it('refuses floats and negatives in any amount, price or quantity with 400 invalid_payload naming the field', async () => {
    const { create, runtime, projectId } = await setup();
    const cases: [unknown, string][] = [
      [{ amount: 10.5 }, '.amount'],
      [{ amount: -1 }, '.amount'],
      [{ items: [{ quantity: 1, price: 9.99 }] }, '.items.0.price'],
      [{ items: [{ quantity: 1, price: -100 }] }, '.items.0.price'],
      [{ items: [{ quantity: 1.5, price: 100 }] }, '.items.0.quantity'],
      [{ items: [{ amount: 1, quantity: 1, price: 1 }, { amount: -5 }] }, '.items.1.amount'],
      [{ items: [{ product: { price: 1.25 } }] }, '.items.0.product.price'],
    ];
    for (const [json, field] of cases) {
      const reply = await create(json);
      expect({ json, status: reply.status, key: reply.json.key }).toEqual({ json, status: 400, key: 'invalid_payload' });
      expect(reply.json.details).toContain(field);
    }
    expect(await orderItems(runtime, projectId)).toBe(0);
  });

  it('refuses a line whose amount disagrees with price × quantity, and sums beyond 2^53 - 1', async () => {
    const { create } = await setup();
    const wrong = await create({ items: [{ quantity: 2, price: 100, amount: 150 }] });
    expect(wrong.status).toBe(400);
    expect(wrong.json.details).toContain('.items.0.amount');
    const huge = await create({ items: [{ quantity: 2, price: Number.MAX_SAFE_INTEGER }] });
    expect(huge.status).toBe(400);
    expect(huge.json.key).toBe('invalid_payload');
  });

  it('answers 404 for an id no order has and for a customer id no customer has', async () => {
    const { create } = await setup();
    const unknown = await create({ id: 'ord_nothing', status: 'PAID' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'order', resource_id: 'ord_nothing' });
    const noCustomer = await create({ customer: { id: 'cust_000000000000000000000000' } });
    expect(noCustomer.status).toBe(404);
    expect(noCustomer.json).toMatchObject({ resource_type: 'customer' });
  });

  it('takes the referrer as an id or as a customer object upserted by source_id, not both', async () => {
    const { create, api } = await setup();
    const byObject = await create({ referrer: { source_id: 'ref-1', name: 'Ref' } });
    const ref = await api.call('get-customer', { params: { customerId: 'ref-1' } });
    expect(byObject.json.referrer_id).toBe(ref.json.id);
    expect((await create({ referrer_id: 'cust_someone' })).json.referrer_id).toBe('cust_someone');
    const both = await create({ referrer_id: 'cust_someone', referrer: { source_id: 'ref-1' } });
    expect(both.status).toBe(400);
    expect(both.json.key).toBe('invalid_payload');
  });

  it('replays the first reply to a retry with the same Idempotency-Key', async () => {
    const { clock, create, runtime, projectId } = await setup();
    const first = await create({ amount: 500 }, { 'idempotency-key': 'k-1' });
    clock.advance(1_000);
    const retry = await create({ amount: 500 }, { 'idempotency-key': 'k-1' });
    expect(retry.status).toBe(200);
    expect(retry.headers['Idempotent-Replayed']).toBe('true');
    expect(retry.json).toEqual(first.json);
    expect(await orderItems(runtime, projectId)).toBe(1);
  });
});
