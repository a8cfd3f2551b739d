import { describe, expect, it } from 'vitest';
import { setKeyPermissions } from '../../../lib/app-keys/app-key.service.js';
import { ManualClock } from '../../../lib/clock.js';
import { eventSchemaListReplySchema, eventSchemaReplySchema } from '../../../lib/custom-event-schemas/event-schema.reply.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 4, 1, 8, 0, 0);

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  return { runtime, pair, clock, api: eventApi(runtime, pair) };
}

describe('POST /v1/custom-event-schemas', () => {
  it("defines a custom event and replies with Voucherify's custom event schema object", async () => {
    const { api } = await setup();
    const reply = await api.createSchema({
      name: 'review_left',
      schema: {
        properties: {
          stars: { type: 'number', optional: false },
          text: { type: 'string', optional: true },
          old: { type: 'date', optional: true, deleted: true },
        },
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      id: expect.stringMatching(/^ms_[0-9A-Za-z]{24}$/),
      name: 'review_left',
      schema: {
        properties: {
          stars: { type: 'number', optional: false },
          text: { type: 'string', optional: true },
          old: { type: 'date', optional: true, deleted: true },
        },
      },
      created_at: new Date(at).toISOString(),
      object: 'custom-event-schema',
    });
    eventSchemaReplySchema.parse(reply.json);
  });

  it('accepts an empty property list and every property type', async () => {
    const { api } = await setup();
    expect((await api.createSchema(schemaBody('signed_up'))).status).toBe(200);
    const all = await api.createSchema(schemaBody('all_types', { s: 'string', n: 'number', b: 'boolean', d: 'date', dt: 'datetime' }));
    expect(all.status).toBe(200);
  });

  it('refuses a second schema with the same name (409 duplicate_found), while names differing in case are distinct', async () => {
    const { api } = await setup();
    expect((await api.createSchema(schemaBody('sign_up'))).status).toBe(200);
    const dup = await api.createSchema(schemaBody('sign_up', { plan: 'string' }));
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({
      key: 'duplicate_found',
      details: 'Duplicated custom_event_schema exists with name sign_up',
      resource_id: 'sign_up',
      resource_type: 'custom_event_schema',
    });
    expect((await api.createSchema(schemaBody('Sign_Up'))).status).toBe(200);
  });

  it('creates exactly one schema when 20 requests race for the same name', async () => {
    const { api } = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => api.createSchema(schemaBody('raced', { [`p${i}`]: 'string' }))));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(19);
    const list = await api.listSchemas();
    expect((list.json.data as unknown[]).length).toBe(1);
  });

  it.each([
    ['an unknown property type', { name: 'e', schema: { properties: { p: { type: 'geopoint', optional: true } } } }, '.schema.properties.p.type'],
    ['a property without optional', { name: 'e', schema: { properties: { p: { type: 'string' } } } }, '.schema.properties.p.optional'],
    ['no schema', { name: 'e' }, '.schema'],
    ['an empty name', schemaBody(''), '.name'],
    ['a name of 301 characters', schemaBody('x'.repeat(301)), '.name'],
  ])('refuses %s with 400 invalid_payload naming the property', async (_what, body, property) => {
    const { api } = await setup();
    const reply = await api.createSchema(body);
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('invalid_payload');
    expect(reply.json.details).toContain(property);
  });

  it('accepts a name of exactly 300 characters', async () => {
    const { api } = await setup();
    expect((await api.createSchema(schemaBody('é'.repeat(300)))).status).toBe(200);
  });

  it('needs the metadata-schemas scope (or api): a key limited to events gets 403', async () => {
    const { runtime, pair, api } = await setup();
    await setKeyPermissions(runtime, pair.app_id, ['events']);
    expect((await api.createSchema(schemaBody('x'))).status).toBe(403);
    expect((await api.listSchemas()).status).toBe(403);
    await setKeyPermissions(runtime, pair.app_id, ['metadata-schemas']);
    expect((await api.createSchema(schemaBody('x'))).status).toBe(200);
    expect((await api.listSchemas()).status).toBe(200);
  });
});

describe('GET /v1/custom-event-schemas and /v1/custom-event-schemas/{schemaId}', () => {
  it("lists the project's schemas oldest first, without another project's", async () => {
    const { runtime, clock, api } = await setup();
    await eventApi(runtime, await newProject(runtime)).createSchema(schemaBody('theirs'));
    for (const name of ['first', 'second', 'third']) {
      expect((await api.createSchema(schemaBody(name))).status).toBe(200);
      clock.advance(1000);
    }
    const reply = await api.listSchemas();
    expect(reply.status).toBe(200);
    eventSchemaListReplySchema.parse(reply.json);
    expect(reply.json).toMatchObject({ object: 'list', data_ref: 'data', total: 3 });
    expect((reply.json.data as { name: string }[]).map((s) => s.name)).toEqual(['first', 'second', 'third']);
  });

  it('gets a schema by id or by event name, and answers 404 custom_event_schema otherwise', async () => {
    const { api } = await setup();
    const created = await api.createSchema(schemaBody('order paid', { amount: 'number' }));
    const byId = await api.getSchema(created.json.id as string);
    expect(byId.status).toBe(200);
    expect(byId.json).toEqual(created.json);
    const byName = await api.getSchema('order paid');
    expect(byName.json).toEqual(created.json);
    const missing = await api.getSchema('ms_missing');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ key: 'not_found', resource_type: 'custom_event_schema', resource_id: 'ms_missing' });
  });
});
