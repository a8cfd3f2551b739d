import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { fileTableName, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 6, 2, 9, 0, 0);

async function setup() {
  const clock = new ManualClock(at);
  // The file's own table: customerItems Scans it.
  const runtime = testRuntime({ clock, tableName: await fileTableName() });
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  const create = (json: unknown, extra: Record<string, string> = {}) => api.call('create-customer', { json, headers: { ...headers, ...extra } });
  return { runtime, pair, api, clock, create, projectId: pair.project_id };
}

/** Customer items of a project: a test-only scan, to count what the races wrote. */
async function customerItems(runtime: Runtime, projectId: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await runtime.ddb.send(
      new ScanCommand({
        TableName: runtime.tableName,
        FilterExpression: 'begins_with(PK, :p) AND SK = :sk',
        ExpressionAttributeValues: { ':p': `P#${projectId}#CUSTOMER#`, ':sk': 'CUSTOMER' },
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    count += page.Items?.length ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

const full = {
  source_id: 'bob-123',
  name: 'Bob Smith',
  description: 'A frequent customer',
  email: 'bob.smith@example.com',
  phone: '+1 933 222 3333',
  birthdate: '1980-01-01',
  address: { city: 'New York', state: 'NY', line_1: '123 Main St.', line_2: 'APT 3', country: 'United States', postal_code: '10001' },
  metadata: { lang: 'en', test: true },
};

describe('POST /v1/customers', () => {
  it('creates a customer with every field sent and replies with the customer object, which GET then returns', async () => {
    const { api, create } = await setup();
    const reply = await create(full);
    expect(reply.status).toBe(200);
    const { source_id, ...fields } = full;
    expect(reply.json).toMatchObject({ ...fields, source_id, address: full.address, created_at: new Date(at).toISOString(), object: 'customer' });
    expect(reply.json.id).toMatch(/^cust_[0-9A-Za-z]{24}$/);
    expect(reply.json).not.toHaveProperty('updated_at');
    const got = await api.call('get-customer', { params: { customerId: 'bob-123' } });
    expect(got.json).toEqual(reply.json);
  });

  it('updates the customer of a known source_id with the fields sent, keeps the others and sets updated_at', async () => {
    const { clock, create } = await setup();
    const first = await create(full);
    clock.advance(5_000);
    const second = await create({ source_id: 'bob-123', name: 'Robert Smith', metadata: { lang: 'pl' }, address: null });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({
      id: first.json.id,
      name: 'Robert Smith',
      email: full.email,
      phone: full.phone,
      metadata: { lang: 'pl' },
      address: null,
      created_at: new Date(at).toISOString(),
      updated_at: new Date(at + 5_000).toISOString(),
    });
  });

  it('leaves updated_at unset when a known source_id is sent with nothing new', async () => {
    const { clock, create } = await setup();
    const first = await create(full);
    clock.advance(5_000);
    const again = await create(full);
    expect(again.json).toEqual(first.json);
  });

  it('updates the customer an id names and ignores the source_id sent with it', async () => {
    const { create, api } = await setup();
    const first = await create({ source_id: 'carol' });
    const byId = await create({ id: first.json.id, source_id: 'someone-else', name: 'Carol' });
    expect(byId.status).toBe(200);
    expect(byId.json).toMatchObject({ id: first.json.id, source_id: 'carol', name: 'Carol' });
    expect((await api.call('get-customer', { params: { customerId: 'someone-else' } })).status).toBe(404);
  });

  it('answers 404 for an id no customer has', async () => {
    const { create } = await setup();
    const unknown = await create({ id: 'cust_000000000000000000000000', name: 'X' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'customer', resource_id: 'cust_000000000000000000000000' });
  });

  it('creates a new customer without source_id from only a name and an email, every time, as Voucherify does', async () => {
    const { runtime, projectId, create, api } = await setup();
    const body = { name: 'Nobody', email: 'nobody@example.com' };
    const first = await create(body);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ ...body, address: null, created_at: new Date(at).toISOString(), object: 'customer' });
    expect(first.json.id).toMatch(/^cust_[0-9A-Za-z]{24}$/);
    expect(first.json).not.toHaveProperty('source_id');
    // Nothing names it to merge a second one into it: not its email either.
    const second = await create(body);
    expect(second.status).toBe(200);
    expect(second.json.id).not.toBe(first.json.id);
    expect(await customerItems(runtime, projectId)).toBe(2);

    const id = first.json.id as string;
    const got = await api.call('get-customer', { params: { customerId: id } });
    expect(got.json).toEqual(first.json);
    const byEmail = await api.call('list-customers', { query: 'email=nobody%40example.com' });
    const listed = byEmail.json as { customers: { id: string }[]; total: number };
    expect(listed.total).toBe(2);
    expect(listed.customers.map((c) => c.id).sort()).toEqual([first.json.id, second.json.id].sort());
    const updated = await api.call('update-customer', { params: { customerId: id }, json: { name: 'Somebody' } });
    expect(updated.json).toMatchObject({ id: first.json.id, name: 'Somebody', email: body.email });
    expect(updated.json).not.toHaveProperty('source_id');
    // By id only: a source_id never names it (it has none), and one cannot be given to it.
    const claim = await api.call('update-customer', { params: { customerId: id }, json: { source_id: 'late' } });
    expect(claim.status).toBe(400);
    expect((await api.call('delete-customer', { params: { customerId: id } })).status).toBe(204);
    expect((await api.call('get-customer', { params: { customerId: id } })).status).toBe(404);
    expect((await api.call('list-customers', {})).json.total).toBe(1);
  });

  it('lists customers without source_id after the others in the source_id order, and first in its reverse', async () => {
    const { clock, create, api } = await setup();
    const b = await create({ source_id: 'b' });
    clock.advance(1);
    const anon1 = await create({ name: 'One' });
    clock.advance(1);
    const a = await create({ source_id: 'a' });
    clock.advance(1);
    const anon2 = await create({ name: 'Two' });
    const ids = (order: string, page = 1, limit = 10) =>
      api.call('list-customers', { query: `order=${order}&page=${page}&limit=${limit}` }).then((r) => {
        expect(r.status).toBe(200);
        const json = r.json as { customers: { id: string }[]; total: number; has_more: boolean };
        return { ids: json.customers.map((c) => c.id), total: json.total, hasMore: json.has_more };
      });
    // The source id index is a GSI (eventually consistent); DynamoDB Local is not.
    expect(await ids('source_id')).toEqual({ ids: [a.json.id, b.json.id, anon1.json.id, anon2.json.id], total: 4, hasMore: false });
    expect(await ids('-source_id')).toEqual({ ids: [anon2.json.id, anon1.json.id, b.json.id, a.json.id], total: 4, hasMore: false });
    expect(await ids('source_id', 2, 1)).toEqual({ ids: [b.json.id], total: 4, hasMore: true });
    expect(await ids('source_id', 2, 2)).toEqual({ ids: [anon1.json.id, anon2.json.id], total: 4, hasMore: false });
    expect(await ids('-source_id', 2, 2)).toEqual({ ids: [b.json.id, a.json.id], total: 4, hasMore: false });
  });

  it('is the customer POST /v1/events upserts: an event with its source_id finds it, and its fields change it', async () => {
    const { runtime, pair, create, api } = await setup();
    const created = await create({ source_id: 'dora', name: 'Dora' });
    const events = eventApi(runtime, pair);
    expect((await events.createSchema(schemaBody('visited'))).status).toBe(200);
    const tracked = await events.trackEvent({ event: 'visited', customer: { source_id: 'dora', email: 'dora@example.com' } });
    expect((tracked.json.customer as { id: string }).id).toBe(created.json.id);
    expect((await api.call('get-customer', { params: { customerId: 'dora' } })).json).toMatchObject({ name: 'Dora', email: 'dora@example.com' });
  });

  it('makes exactly one customer when 20 requests create the same source_id at once', async () => {
    const { runtime, projectId, create, api } = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ source_id: 'rush', metadata: { n: i } })));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(replies.map((r) => r.json.id));
    expect(ids.size).toBe(1);
    expect(await customerItems(runtime, projectId)).toBe(1);
    const stored = await api.call('get-customer', { params: { customerId: 'rush' } });
    expect(stored.json.id).toBe([...ids][0]);
    // The last writer's metadata, one of the 20 (each field is written whole).
    expect(replies.map((r) => JSON.stringify(r.json.metadata))).toContain(JSON.stringify(stored.json.metadata));
  });

  it('replays the first reply to a retry with the same Idempotency-Key, and refuses the key with another body', async () => {
    const { clock, create } = await setup();
    const first = await create({ source_id: 'erin', name: 'Erin' }, { 'idempotency-key': 'k-1' });
    clock.advance(1_000);
    const retry = await create({ source_id: 'erin', name: 'Erin' }, { 'idempotency-key': 'k-1' });
    expect(retry.status).toBe(200);
    expect(retry.headers['Idempotent-Replayed']).toBe('true');
    expect(retry.json).toEqual(first.json);
    const reused = await create({ source_id: 'erin', name: 'Other' }, { 'idempotency-key': 'k-1' });
    expect(reused.status).toBe(422);
  });
});
