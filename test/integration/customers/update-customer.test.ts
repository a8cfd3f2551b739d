import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 6, 3, 9, 0, 0);

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  const update = (customerId: string, json: unknown, extra: Record<string, string> = {}) =>
    api.call('update-customer', { params: { customerId }, json, headers: { ...headers, ...extra } });
  const created = await api.call('create-customer', {
    json: { source_id: 'alice', name: 'Alice Morgan', email: 'alice@example.com', address: { city: 'Boston' }, metadata: { lang: 'en', tier: 1 } },
  });
  expect(created.status).toBe(200);
  return { runtime, api, clock, update, id: created.json.id as string, created: created.json };
}

describe('PUT /v1/customers/{customerId}', () => {
  it('sets the fields sent, keeps the others and sets updated_at, by id and by source id', async () => {
    const { api, clock, update, id, created } = await setup();
    clock.advance(10_000);
    const byId = await update(id, { name: 'Alice McDonald', phone: '+1 (132) 222-2222', birthday: '1990-02-03' });
    expect(byId.status).toBe(200);
    expect(byId.json).toEqual({
      ...created,
      name: 'Alice McDonald',
      phone: '+1 (132) 222-2222',
      birthdate: '1990-02-03',
      updated_at: new Date(at + 10_000).toISOString(),
    });
    clock.advance(10_000);
    const bySource = await update('alice', { metadata: { lang: 'pl' }, address: null });
    expect(bySource.json).toMatchObject({
      id,
      name: 'Alice McDonald',
      metadata: { lang: 'pl' },
      address: null,
      updated_at: new Date(at + 20_000).toISOString(),
    });
    expect((await api.call('get-customer', { params: { customerId: id } })).json).toEqual(bySource.json);
  });

  it('writes nothing for a body that changes nothing', async () => {
    const { clock, update, created } = await setup();
    clock.advance(10_000);
    const reply = await update('alice', { name: 'Alice Morgan', metadata: { tier: 1, lang: 'en' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual(created);
  });

  it("accepts the customer's own source_id in the body, as the SDK sends it, and refuses another with 400", async () => {
    const { update, id } = await setup();
    expect((await update('alice', { source_id: 'alice', name: 'A' })).status).toBe(200);
    const moved = await update(id, { source_id: 'bob', name: 'B' });
    expect(moved.status).toBe(400);
    expect(moved.json).toMatchObject({ key: 'invalid_payload' });
  });

  it('answers 404 for an unknown customer and 400 for a field of the wrong type, changing nothing', async () => {
    const { api, update, created } = await setup();
    const unknown = await update('nobody', { name: 'X' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'customer', resource_id: 'nobody' });
    const wrong = await update('alice', { name: 5 });
    expect(wrong.status).toBe(400);
    expect((await api.call('get-customer', { params: { customerId: 'alice' } })).json).toEqual(created);
  });

  it('replays the first reply to a retry with the same Idempotency-Key', async () => {
    const { clock, update } = await setup();
    const first = await update('alice', { name: 'Once' }, { 'idempotency-key': 'put-1' });
    clock.advance(1_000);
    await update('alice', { name: 'Twice' });
    const retry = await update('alice', { name: 'Once' }, { 'idempotency-key': 'put-1' });
    expect(retry.headers['Idempotent-Replayed']).toBe('true');
    expect(retry.json).toEqual(first.json);
  });
});
