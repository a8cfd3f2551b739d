import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 6, 1, 9, 0, 0);

/** A project whose customers come from POST /v1/events, the only way to make one before create-customer. */
async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const events = eventApi(runtime, pair);
  expect((await events.createSchema(schemaBody('signed_up'))).status).toBe(200);
  const customerOf = async (customer: Record<string, unknown>): Promise<string> => {
    const reply = await events.trackEvent({ event: 'signed_up', customer });
    expect(reply.status).toBe(200);
    return (reply.json.customer as { id: string }).id;
  };
  return { runtime, pair, api, clock, customerOf };
}

const zeroSummary = {
  redemptions: {
    total_redeemed: 0,
    total_failed: 0,
    total_succeeded: 0,
    total_rolled_back: 0,
    total_rollback_failed: 0,
    total_rollback_succeeded: 0,
    gift: { redeemed_amount: 0, amount_to_go: 0 },
    loyalty_card: { redeemed_points: 0, points_to_go: 0 },
  },
  orders: { total_amount: 0, total_count: 0, average_amount: 0, last_order_amount: 0 },
};

describe('GET /v1/customers/{customerId}', () => {
  it('replies with the customer object of a customer that an event created, by id and by source id', async () => {
    const { api, customerOf } = await setup();
    const id = await customerOf({
      source_id: 'ann@example.com',
      name: 'Ann',
      email: 'ann@example.com',
      phone: '+48 600 000 000',
      birthdate: '1990-04-01',
      address: { city: 'Gdańsk', country: 'Poland', line_1: 'Długa 1', postal_code: '80-001' },
      metadata: { tier: 'gold' },
    });
    const byId = await api.call('get-customer', { params: { customerId: id } });
    expect(byId.status).toBe(200);
    expect(byId.json).toEqual({
      id,
      source_id: 'ann@example.com',
      name: 'Ann',
      email: 'ann@example.com',
      phone: '+48 600 000 000',
      birthdate: '1990-04-01',
      address: { city: 'Gdańsk', country: 'Poland', line_1: 'Długa 1', postal_code: '80-001' },
      metadata: { tier: 'gold' },
      summary: zeroSummary,
      loyalty: { points: 0, referred_customers: 0, campaigns: {} },
      referrals: { total: 0, campaigns: [] },
      system_metadata: {},
      created_at: new Date(at).toISOString(),
      object: 'customer',
    });
    const bySourceId = await api.call('get-customer', { params: { customerId: 'ann@example.com' } });
    expect(bySourceId.status).toBe(200);
    expect(bySourceId.json).toEqual(byId.json);
  });

  it('leaves out unset strings and empty metadata, gives a null address and shows updated_at once the customer changed', async () => {
    const { api, clock, customerOf } = await setup();
    const id = await customerOf({ source_id: 'bare' });
    const bare = await api.call('get-customer', { params: { customerId: id } });
    expect(bare.json).toMatchObject({ id, source_id: 'bare', address: null, object: 'customer' });
    // As the reference's example of GET /v1/customers/{customerId} leaves it out.
    expect(bare.json).not.toHaveProperty('metadata');
    expect(bare.json).not.toHaveProperty('name');
    expect(bare.json).not.toHaveProperty('email');
    expect(bare.json).not.toHaveProperty('updated_at');

    clock.advance(60_000);
    await customerOf({ source_id: 'bare', name: 'Bea' });
    const changed = await api.call('get-customer', { params: { customerId: 'bare' } });
    expect(changed.json).toMatchObject({ name: 'Bea', created_at: new Date(at).toISOString(), updated_at: new Date(at + 60_000).toISOString() });
  });

  it('finds by id before source id when one customer has the other one id as its source id', async () => {
    const { api, customerOf } = await setup();
    const first = await customerOf({ source_id: 'first' });
    const second = await customerOf({ source_id: first });
    expect(second).not.toBe(first);
    expect((await api.call('get-customer', { params: { customerId: first } })).json.id).toBe(first);
    expect((await api.call('get-customer', { params: { customerId: second } })).json.id).toBe(second);
  });

  it('answers 404 not_found naming the customer for an unknown id or source id, and for a customer of another project', async () => {
    const { runtime, customerOf } = await setup();
    const theirs = await customerOf({ source_id: 'theirs' });
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    for (const ref of ['cust_unknown000000000000000', 'nobody@example.com', theirs, 'theirs']) {
      const reply = await other.call('get-customer', { params: { customerId: ref } });
      expect(reply.status).toBe(404);
      expect(reply.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'customer', resource_id: ref });
    }
  });
});
