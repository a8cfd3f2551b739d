import { describe, expect, it } from 'vitest';
import { at, setup } from './orders-setup.js';

describe('PUT /v1/orders/{orderId}', () => {
  it('sets the status and metadata sent, leaves the rest, and refreshes updated_at', async () => {
    const { create, update, get, clock } = await setup();
    const made = await create({ source_id: 's-1', amount: 1200, metadata: { a: 1 }, items: [{ quantity: 1, price: 1200 }] });
    clock.advance(5_000);
    const paid = await update(made.json.id, { status: 'PAID', metadata: { b: 2 } });
    expect(paid.status).toBe(200);
    expect(paid.json).toMatchObject({ id: made.json.id, status: 'PAID', metadata: { b: 2 }, amount: 1200, updated_at: new Date(at + 5_000).toISOString() });
    expect(paid.json.items).toEqual(made.json.items);
    clock.advance(5_000);
    const canceled = await update('s-1', { status: 'CANCELED' });
    expect(canceled.json).toMatchObject({ status: 'CANCELED', updated_at: new Date(at + 10_000).toISOString() });
    expect((await get('s-1')).json).toEqual(canceled.json);
  });

  it('replaces the lines and recomputes the amount and totals from them, unless an amount is sent', async () => {
    const { create, update } = await setup();
    const made = await create({ items: [{ quantity: 1, price: 1000 }] });
    expect(made.json.amount).toBe(1000);
    const more = await update(made.json.id, { items: [{ quantity: 3, price: 1000 }, { amount: 250 }] });
    expect(more.json).toMatchObject({ amount: 3250, initial_amount: 3250, total_amount: 3250, total_discount_amount: 0 });
    expect(more.json.items.map((i) => i.amount)).toEqual([3000, 250]);
    const fixed = await update(made.json.id, { amount: 5000 });
    expect(fixed.json).toMatchObject({ amount: 5000, total_amount: 5000 });
    expect(fixed.json.items.map((i) => i.amount)).toEqual([3000, 250]);
  });

  it('attaches a customer by source_id, creating it on first use', async () => {
    const { create, update, api } = await setup();
    const made = await create({});
    const updated = await update(made.json.id, { customer: { source_id: 'bob' } });
    const bob = await api.call('get-customer', { params: { customerId: 'bob' } });
    expect(bob.status).toBe(200);
    expect(updated.json).toMatchObject({ customer_id: bob.json.id, customer: { id: bob.json.id, object: 'customer' } });
  });

  it('writes nothing when nothing differs (updated_at stays)', async () => {
    const { create, update, clock } = await setup();
    const made = await create({ status: 'PAID' });
    clock.advance(1_000);
    const same = await update(made.json.id, { status: 'PAID' });
    expect(same.json).toEqual(made.json);
  });

  it('answers 404 for an unknown order, and 400 for floats, negatives, a bad status or another source_id', async () => {
    const { create, update } = await setup();
    const made = await create({ source_id: 'mine' });
    const missing = await update('nope', { status: 'PAID' });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ key: 'not_found', resource_type: 'order', resource_id: 'nope' });
    for (const json of [{ amount: 1.5 }, { amount: -3 }, { items: [{ price: 10, quantity: -1 }] }, { status: 'SHIPPED' }, { source_id: 'theirs' }]) {
      const reply = await update(made.json.id, json);
      expect({ json, status: reply.status, key: reply.json.key }).toEqual({ json, status: 400, key: 'invalid_payload' });
    }
  });

  it('keeps every concurrent update of one order: 10 racing status and metadata changes all land in turn', async () => {
    const { create, update, get } = await setup();
    const made = await create({ source_id: 'busy' });
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => update('busy', { metadata: { n: i } })));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const stored = await get(made.json.id);
    expect(replies.map((r) => JSON.stringify(r.json.metadata))).toContain(JSON.stringify(stored.json.metadata));
  });

  it('replays the first reply to a retry with the same Idempotency-Key', async () => {
    const { create, update, clock } = await setup();
    const made = await create({});
    const first = await update(made.json.id, { status: 'PAID' }, { 'idempotency-key': 'u-1' });
    clock.advance(1_000);
    await update(made.json.id, { status: 'FULFILLED' });
    const retry = await update(made.json.id, { status: 'PAID' }, { 'idempotency-key': 'u-1' });
    expect(retry.headers['Idempotent-Replayed']).toBe('true');
    expect(retry.json).toEqual(first.json);
  });
});
