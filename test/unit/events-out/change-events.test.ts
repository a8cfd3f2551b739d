import { describe, expect, it } from 'vitest';
import { outboxStreamWorker } from '../../../lib/api/workers.js';
import * as entities from '../../../lib/db/entities.js';
import { EMITTED_EVENTS, EVENT_ENTITIES, eventsOfChange } from '../../../lib/events-out/change-events.js';
import { WEBHOOK_EVENTS } from '../../../lib/webhooks/webhook.js';

const customer = (over: Record<string, unknown> = {}) =>
  entities.customer.toItem({
    id: 'cust_1',
    projectId: 'p1',
    sourceId: 'ann',
    name: 'Ann',
    email: null,
    phone: null,
    birthdate: null,
    description: null,
    address: null,
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: null,
    revision: 0,
    listed: true,
    ...over,
  } as never);

describe('the outbox mapping (item changes → webhook events)', () => {
  it('filters the stream to the entities it maps, and emits only reference event names', () => {
    expect([...outboxStreamWorker.entities]).toEqual([...EVENT_ENTITIES]);
    for (const e of EMITTED_EVENTS) expect(WEBHOOK_EVENTS).toContain(e);
  });

  it('gives a change the same event id however often it is read, and different changes different ids', () => {
    const created = eventsOfChange({ kind: 'INSERT', newItem: customer(), oldItem: null });
    expect(created.map((e) => e.type)).toEqual(['customer.created']);
    expect(eventsOfChange({ kind: 'INSERT', newItem: customer(), oldItem: null })[0]?.id).toBe(created[0]?.id);
    const deleted = eventsOfChange({ kind: 'REMOVE', newItem: null, oldItem: customer(), at: '2026-01-02T00:00:00.000Z' });
    expect(deleted.map((e) => e.type)).toEqual(['customer.deleted']);
    expect(deleted[0]?.id).not.toBe(created[0]?.id);
    expect(deleted[0]?.createdAt).toBe('2026-01-02T00:00:00.000Z');
  });

  it('sends nothing for items of other entities or for a customer update (the reference has no customer.updated)', () => {
    expect(eventsOfChange({ kind: 'MODIFY', newItem: customer({ name: 'Bea' }), oldItem: customer() })).toEqual([]);
    expect(eventsOfChange({ kind: 'INSERT', newItem: { PK: 'x', SK: 'y', entity: 'rate_limit_window' }, oldItem: null })).toEqual([]);
  });
});
