import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { getCustomerIdBySourceId } from '../../../lib/customers/customer.repo.js';
import { listEventsOfCustomer } from '../../../lib/events/event.repo.js';
import { REPLAYED_HEADER } from '../../../lib/idempotency/idempotency.service.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 6, 1, 12, 0, 0);
const HOUR = 3600_000;

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = eventApi(runtime, pair);
  await api.createSchema(schemaBody('order_paid', { amount: 'number' }));
  const eventsOf = async (sourceId: string) => {
    const id = await getCustomerIdBySourceId(runtime, pair.project_id, sourceId);
    return id ? listEventsOfCustomer(runtime, pair.project_id, id) : [];
  };
  return { runtime, clock, api, eventsOf };
}

const paid = (sourceId: string, amount = 10) => ({ event: 'order_paid', customer: { source_id: sourceId }, metadata: { amount } });

describe('POST /v1/events with an Idempotency-Key', () => {
  it('returns the first reply to a retry with the same key and body, and stores the event once', async () => {
    const { clock, api, eventsOf } = await setup();
    const first = await api.trackEvent(paid('ann'), 'key-1');
    expect(first.status).toBe(200);
    clock.advance(HOUR);
    // Key order in the body does not make it another request.
    const retry = await api.trackEvent({ metadata: { amount: 10 }, customer: { source_id: 'ann' }, event: 'order_paid' }, 'key-1');
    expect(retry.status).toBe(200);
    expect(retry.json).toEqual(first.json);
    expect(first.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(retry.headers[REPLAYED_HEADER]).toBe('true');
    const events = await eventsOf('ann');
    expect(events).toHaveLength(1);
    expect(events[0]?.idempotencyKey).toBe('key-1');
  });

  it('stores one event when 20 identical requests with one key race, and gives all of them the same reply', async () => {
    const { api, eventsOf } = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, () => api.trackEvent(paid('race'), 'race-key')));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (const reply of replies) expect(reply.json).toEqual(replies[0]?.json);
    // One request committed; the others lost the commit race and replay its reply.
    expect(replies.filter((r) => r.headers[REPLAYED_HEADER] === undefined)).toHaveLength(1);
    expect(await eventsOf('race')).toHaveLength(1);
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused, storing nothing more', async () => {
    const { api, eventsOf } = await setup();
    expect((await api.trackEvent(paid('ben', 10), 'key-2')).status).toBe(200);
    const other = await api.trackEvent(paid('ben', 11), 'key-2');
    expect(other.status).toBe(422);
    expect(other.json).toMatchObject({ code: 422, key: 'idempotency_key_reused', message: 'Idempotency key reused' });
    expect(other.json.details).toContain('key-2');
    expect(await eventsOf('ben')).toHaveLength(1);
  });

  it('refuses a different request racing on one key: exactly one body wins, the others get 422', async () => {
    const { api, eventsOf } = await setup();
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => api.trackEvent(paid('cleo', i + 1), 'contested')));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 422)).toHaveLength(9);
    expect(await eventsOf('cleo')).toHaveLength(1);
  });

  it('treats every request without a key, and every distinct key, as a new event', async () => {
    const { api, eventsOf } = await setup();
    await api.trackEvent(paid('dan'));
    await api.trackEvent(paid('dan'));
    await api.trackEvent(paid('dan'), 'a');
    await api.trackEvent(paid('dan'), 'b');
    expect(await eventsOf('dan')).toHaveLength(4);
  });

  it('forgets a key after 24 hours: the same key then makes a new event, with any body', async () => {
    const { clock, api, eventsOf } = await setup();
    expect((await api.trackEvent(paid('eve', 1), 'day-key')).status).toBe(200);
    clock.advance(24 * HOUR - 1000);
    expect((await api.trackEvent(paid('eve', 2), 'day-key')).status).toBe(422);
    clock.advance(1000);
    // The record is still in the table (TTL deletion lags): expiry is checked in code.
    const later = await api.trackEvent(paid('eve', 2), 'day-key');
    expect(later.status).toBe(200);
    expect(later.json.metadata).toEqual({ amount: 2 });
    expect(await eventsOf('eve')).toHaveLength(2);
  });

  it('does not record failed requests: a key whose first use was refused can be used again', async () => {
    const { api, eventsOf } = await setup();
    const refused = await api.trackEvent({ ...paid('fay'), metadata: { amount: 'ten' } }, 'fix-me');
    expect(refused.status).toBe(400);
    expect((await api.trackEvent(paid('fay'), 'fix-me')).status).toBe(200);
    expect(await eventsOf('fay')).toHaveLength(1);
  });

  it('scopes keys to the project: two projects may use the same key for different events', async () => {
    const { runtime, api } = await setup();
    const other = eventApi(runtime, await newProject(runtime));
    await other.createSchema(schemaBody('order_paid', { amount: 'number' }));
    expect((await api.trackEvent(paid('gus', 1), 'shared-key')).status).toBe(200);
    expect((await other.trackEvent(paid('gus', 2), 'shared-key')).status).toBe(200);
  });

  it.each([[''], ['has space'], ['k'.repeat(256)], ['é']])('refuses the key %j with 400 invalid_idempotency_key', async (key) => {
    const { api } = await setup();
    const reply = await api.trackEvent(paid('hal'), key);
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('invalid_idempotency_key');
  });
});
