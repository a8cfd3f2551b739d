import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { countCustomers } from '../../../lib/customers/customer.repo.js';
import { ALL_CUSTOMERS, viewOf } from '../../../lib/customers/customer-views.js';
import { apiClient } from '../../support/api-client.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/**
 * The list views' counts (what GET /v1/customers gives as `total`) are kept in the customers' own
 * transactions: they must stay exact through creations, changes, deletions and races.
 */
async function setup() {
  const clock = new ManualClock(Date.UTC(2026, 6, 5, 9, 0, 0));
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const create = (json: unknown) => api.call('create-customer', { json });
  const update = (customerId: string, json: unknown) => api.call('update-customer', { params: { customerId }, json });
  const remove = (customerId: string) => api.call('delete-customer', { params: { customerId } });
  const counted = (view: string) => countCustomers(runtime, pair.project_id, view);
  const email = (v: string) => counted(viewOf('email', v));
  const city = (v: string) => counted(viewOf('city', v));
  const name = (v: string) => counted(viewOf('name', v));
  return { runtime, pair, clock, create, update, remove, all: () => counted(ALL_CUSTOMERS), email, city, name };
}

describe('customer counts per list view', () => {
  it('counts every customer, and those of each email, city and name, through creation, change and deletion', async () => {
    const { create, update, remove, all, email, city, name } = await setup();
    await create({ source_id: 'a', email: 'shared@example.com', address: { city: 'Oslo' }, name: 'Ann' });
    await create({ source_id: 'b', email: 'shared@example.com', address: { city: 'Oslo' } });
    await create({ source_id: 'c' });
    expect([await all(), await email('shared@example.com'), await city('Oslo'), await name('Ann')]).toEqual([3, 2, 2, 1]);

    await update('b', { email: 'b@example.com', address: { city: 'Bergen' }, name: 'Bo' });
    expect([await email('shared@example.com'), await email('b@example.com'), await city('Oslo'), await city('Bergen'), await name('Bo')]).toEqual([
      1, 1, 1, 1, 1,
    ]);
    await update('a', { address: null });
    expect(await city('Oslo')).toBe(0);

    await remove('b');
    expect([await all(), await email('b@example.com'), await city('Bergen'), await name('Bo')]).toEqual([2, 0, 0, 0]);
    // A changed metadata moves no count.
    await update('a', { metadata: { x: 1 } });
    expect([await all(), await email('shared@example.com'), await name('Ann')]).toEqual([2, 1, 1]);
  });

  it('counts customers made by POST /v1/events like those made by POST /v1/customers', async () => {
    const { runtime, pair, create, all, email } = await setup();
    const events = eventApi(runtime, pair);
    expect((await events.createSchema(schemaBody('visited'))).status).toBe(200);
    await events.trackEvent({ event: 'visited', customer: { source_id: 'e1', email: 'e@example.com' } });
    await create({ source_id: 'e1', name: 'Eve' });
    await create({ source_id: 'e2', email: 'e@example.com' });
    expect([await all(), await email('e@example.com')]).toEqual([2, 2]);
  });

  it('counts exactly 30 after 30 concurrent creations of distinct customers, and 1 after 20 of one source id', async () => {
    const { create, all, city } = await setup();
    const distinct = await Promise.all(Array.from({ length: 30 }, (_, i) => create({ source_id: `c-${i}`, address: { city: 'Rome' } })));
    expect(distinct.map((r) => r.status)).toEqual(Array(30).fill(200));
    const same = await Promise.all(Array.from({ length: 20 }, () => create({ source_id: 'same', address: { city: 'Rome' } })));
    expect(same.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect([await all(), await city('Rome')]).toEqual([31, 31]);
  });

  it('keeps one email counted when 10 concurrent updates give one customer 10 different emails', async () => {
    const { create, update, all, email } = await setup();
    await create({ source_id: 'racer', email: 'start@example.com' });
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => update('racer', { email: `e${i}@example.com` })));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const counts = await Promise.all(['start', ...Array.from({ length: 10 }, (_, i) => `e${i}`)].map((e) => email(`${e}@example.com`)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await all()).toBe(1);
  });

  it('ends with nothing counted when a customer is changed and deleted at the same time', async () => {
    const { create, update, remove, all, email } = await setup();
    await create({ source_id: 'gone', email: 'gone@example.com' });
    const replies = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => update('gone', { email: `g${i}@example.com` })),
      remove('gone'),
      ...Array.from({ length: 5 }, (_, i) => update('gone', { email: `h${i}@example.com` })),
    ]);
    expect(replies[5]?.status).toBe(204);
    for (const r of replies) expect([200, 204, 404]).toContain(r.status);
    const emails = ['gone', ...Array.from({ length: 5 }, (_, i) => `g${i}`), ...Array.from({ length: 5 }, (_, i) => `h${i}`)];
    expect((await Promise.all(emails.map((e) => email(`${e}@example.com`)))).reduce((a, b) => a + b, 0)).toBe(0);
    expect(await all()).toBe(0);
  });
});
