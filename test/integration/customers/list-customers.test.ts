import type { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const t0 = Date.UTC(2026, 6, 10, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const MINUTE = 60_000;

/**
 * A project with customers c0..c(n-1), created one minute apart from t0 (c0 first), with the
 * source ids `src-<n>` in reverse creation order, emails and cities given by the caller.
 */
async function setup(n = 5, fields: (i: number) => Record<string, unknown> = () => ({})) {
  const clock = new ManualClock(t0);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const reply = await api.call('create-customer', { json: { source_id: `src-${String(n - i).padStart(2, '0')}`, name: `c${i}`, ...fields(i) } });
    expect(reply.status).toBe(200);
    ids.push(reply.json.id as string);
    clock.advance(MINUTE);
  }
  const list = async (query = '') => {
    const reply = await api.call('list-customers', { query });
    expect(reply.status).toBe(200);
    return reply.json as { object: string; data_ref: string; customers: { id: string; name: string }[]; total: number; has_more: boolean };
  };
  const names = async (query = '') => (await list(query)).customers.map((c) => c.name);
  return { runtime, pair, api, clock, ids, list, names };
}

describe('GET /v1/customers', () => {
  it('lists customers newest first with total and has_more, in pages of limit', async () => {
    const { list, names } = await setup(5);
    const first = await list('limit=2');
    expect(first).toMatchObject({ object: 'list', data_ref: 'customers', total: 5, has_more: true });
    expect(first.customers.map((c) => c.name)).toEqual(['c4', 'c3']);
    expect(first.customers[0]).toMatchObject({ source_id: 'src-01', object: 'customer', summary: expect.any(Object), loyalty: expect.any(Object) });
    expect(await names('limit=2&page=2')).toEqual(['c2', 'c1']);
    const last = await list('limit=2&page=3');
    expect(last.customers.map((c) => c.name)).toEqual(['c0']);
    expect(last).toMatchObject({ total: 5, has_more: false });
    expect(await list('limit=2&page=4')).toMatchObject({ customers: [], total: 5, has_more: false });
    expect(await names()).toEqual(['c4', 'c3', 'c2', 'c1', 'c0']);
  });

  it('orders by created_at, updated_at and source_id, either way', async () => {
    const { api, clock, names } = await setup(4);
    expect(await names('order=created_at')).toEqual(['c0', 'c1', 'c2', 'c3']);
    await api.call('update-customer', { params: { customerId: 'src-04' }, json: { phone: '1' } }); // c0 changes last
    clock.advance(MINUTE);
    await api.call('update-customer', { params: { customerId: 'src-02' }, json: { phone: '2' } }); // then c2
    expect(await names('order=-updated_at')).toEqual(['c2', 'c0', 'c3', 'c1']);
    expect(await names('order=updated_at')).toEqual(['c1', 'c3', 'c0', 'c2']);
    expect(await names('order=source_id')).toEqual(['c3', 'c2', 'c1', 'c0']);
    expect(await names('order=-source_id&limit=3')).toEqual(['c0', 'c1', 'c2']);
  });

  it('bounds the creation and change times (created_at[after]/[before], updated_at[...]), excluding the bounds themselves', async () => {
    const { api, clock, names, list } = await setup(5);
    expect(await names(`created_at[after]=${iso(t0 + MINUTE)}&created_at[before]=${iso(t0 + 4 * MINUTE)}`)).toEqual(['c3', 'c2']);
    expect(await names(`order=created_at&created_at[after]=${encodeURIComponent('2026-07-10T11:02:00+02:00')}`)).toEqual(['c3', 'c4']);
    const bounded = await list(`created_at[before]=${iso(t0 + 2 * MINUTE)}&limit=1`);
    expect(bounded.customers.map((c) => c.name)).toEqual(['c1']);
    // has_more follows the bounds; total is the view's count, which bounds do not narrow.
    expect(bounded).toMatchObject({ total: 5, has_more: true });
    expect(await list(`created_at[after]=${iso(t0 + 3 * MINUTE)}&created_at[before]=${iso(t0 + 3 * MINUTE)}`)).toMatchObject({
      customers: [],
      has_more: false,
    });
    clock.advance(10 * MINUTE);
    const changedAt = clock.now().getTime();
    await api.call('update-customer', { params: { customerId: 'src-05' }, json: { phone: '1' } });
    expect(await names(`order=-updated_at&updated_at[after]=${iso(changedAt - 1)}`)).toEqual(['c0']);
    expect(await names(`order=updated_at&updated_at[before]=${iso(t0 + 2 * MINUTE)}`)).toEqual(['c1']);
  });

  it('pages with starting_after as the SDK scrolls: before it newest first, after it with order=created_at', async () => {
    const { names } = await setup(5);
    expect(await names(`starting_after=${iso(t0 + 2 * MINUTE)}`)).toEqual(['c1', 'c0']);
    expect(await names(`order=created_at&starting_after=${iso(t0 + 2 * MINUTE)}`)).toEqual(['c3', 'c4']);
    expect(await names(`order=created_at&starting_after=1970-01-01T00:00:00Z&limit=2`)).toEqual(['c0', 'c1']);
    expect(await names(`starting_after=2200-01-01T00:00:00Z&limit=2`)).toEqual(['c4', 'c3']);
  });

  it('filters by one exact email, city or name, with that count as total, in any date order', async () => {
    const { api, list, names } = await setup(6, (i) => ({
      email: i % 2 === 0 ? 'even@example.com' : `odd${i}@example.com`,
      address: { city: i < 3 ? 'Oslo' : 'Rome' },
    }));
    expect(await list('email=even@example.com')).toMatchObject({ total: 3, has_more: false });
    expect(await names('email=even@example.com')).toEqual(['c4', 'c2', 'c0']);
    expect(await names('email=Even@example.com')).toEqual([]);
    expect(await list('city=Oslo&order=created_at&limit=2')).toMatchObject({ total: 3, has_more: true, customers: [{ name: 'c0' }, { name: 'c1' }] });
    expect(await list('name=c5')).toMatchObject({ total: 1, customers: [{ name: 'c5' }] });
    expect(await list('city=Paris')).toMatchObject({ total: 0, customers: [], has_more: false });
    // A change moves the customer between filters at once.
    await api.call('update-customer', { params: { customerId: 'src-06' }, json: { address: { city: 'Rome' } } });
    expect(await names('city=Rome&order=-updated_at')).toEqual(['c0', 'c5', 'c4', 'c3']);
    expect(await list('city=Oslo')).toMatchObject({ total: 2 });
  });

  it('lists the customers POST /v1/events made, and no deleted one', async () => {
    const { runtime, pair, api, list } = await setup(2);
    const events = eventApi(runtime, pair);
    expect((await events.createSchema(schemaBody('visited'))).status).toBe(200);
    await events.trackEvent({ event: 'visited', customer: { source_id: 'from-event', name: 'event' } });
    expect((await list()).customers.map((c) => c.name)).toEqual(['event', 'c1', 'c0']);
    expect((await api.call('delete-customer', { params: { customerId: 'src-02' } })).status).toBe(204);
    expect(await list()).toMatchObject({ total: 2, customers: [{ name: 'event' }, { name: 'c1' }] });
  });

  it('answers segment_id with no customers (there are no segments), and never shows another project', async () => {
    const { runtime, list } = await setup(2);
    expect(await list('segment_id=seg_1')).toEqual({ object: 'list', data_ref: 'customers', customers: [], total: 0, has_more: false });
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    expect((await other.call('list-customers')).json).toEqual({ object: 'list', data_ref: 'customers', customers: [], total: 0, has_more: false });
  });

  it('refuses with 400 invalid_query_params the combinations no single Query serves, and values out of range', async () => {
    const { api } = await setup(1);
    for (const query of [
      'email=a@b.c&city=Oslo',
      `order=updated_at&created_at[after]=${iso(t0)}`,
      `updated_at[before]=${iso(t0)}`,
      'order=source_id&email=a@b.c',
      `order=source_id&starting_after=${iso(t0)}`,
      'page=100',
      'limit=101',
      'order=name',
      'created_at[after]=yesterday',
    ]) {
      const reply = await api.call('list-customers', { query });
      expect({ query, status: reply.status, key: reply.json.key }).toEqual({ query, status: 400, key: 'invalid_query_params' });
    }
  });

  it('reads only the entries the page needs: page 3 of 2 reads 7 entries of a view of 30, and the counts', async () => {
    const { runtime, pair, list } = await setup(30);
    const reads = countingReads(runtime);
    const page = await list('limit=2&page=3');
    expect(page.customers.map((c) => c.name)).toEqual(['c25', 'c24']);
    expect(reads.items('CUSTOMERS#ALL')).toBe(7);
    expect(reads.queries.every((q) => q.startsWith(`P#${pair.project_id}#`))).toBe(true);
  });
});

/** Counts the items the runtime's Queries return, by partition (test-only instrumentation). */
function countingReads(runtime: Runtime) {
  const returned = new Map<string, number>();
  const queries: string[] = [];
  runtime.ddb.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const input = args.input as QueryCommand['input'];
      if (input.KeyConditionExpression !== undefined) {
        const pk = String(input.ExpressionAttributeValues?.[':pk']);
        queries.push(pk);
        const items = ((result.output as { Items?: unknown[] }).Items ?? []).length;
        returned.set(pk, (returned.get(pk) ?? 0) + items);
      }
      return result;
    },
    { step: 'initialize', name: 'countQueryItems' },
  );
  return { queries, items: (suffix: string) => [...returned].filter(([pk]) => pk.endsWith(suffix)).reduce((sum, [, n]) => sum + n, 0) };
}
