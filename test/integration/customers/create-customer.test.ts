import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 6, 2, 9, 0, 0);

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
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

  it('answers 404 for an id no customer has, and 400 invalid_payload without source_id or id', async () => {
    const { create } = await setup();
    const unknown = await create({ id: 'cust_000000000000000000000000', name: 'X' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'customer', resource_id: 'cust_000000000000000000000000' });
    const anonymous = await create({ name: 'Nobody' });
    expect(anonymous.status).toBe(400);
    expect(anonymous.json).toMatchObject({ key: 'invalid_payload' });
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
