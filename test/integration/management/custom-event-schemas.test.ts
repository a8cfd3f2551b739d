import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

async function setup() {
  const runtime = testRuntime();
  const credentials = managementHeaders(await newManagementKey(runtime));
  const management = apiClient({ runtime }, credentials);
  const [a, b] = await Promise.all([newProject(runtime, 'events A'), newProject(runtime, 'events B')]);
  const api = apiClient({ runtime }, keyPairHeaders(a));
  const created = await api.call('create-custom-event-schema', {
    json: { name: 'order_paid', schema: { properties: { amount: { type: 'number', optional: false }, note: { type: 'string', optional: true } } } },
  });
  expect(created.status).toBe(200);
  return { runtime, credentials, management, api, a: a.project_id, b: b.project_id, schemaId: created.json.id as string };
}

const track = (metadata: Record<string, unknown>) => ({ json: { event: 'order_paid', customer: { source_id: 'c1' }, metadata } });

describe('Custom event schemas through the Management API (PUT, DELETE .../custom-event-schemas/{customEventSchemaId})', () => {
  it('changes the properties sent, keeps the others, and events follow the change at once', async () => {
    const { management, api, a, schemaId } = await setup();
    expect((await api.call('track-custom-event', track({ note: 'x' }))).status).toBe(400);
    const changed = await management.call('update-custom-event-schema', {
      params: { projectId: a, customEventSchemaId: schemaId },
      json: { schema: { properties: { amount: { type: 'number', optional: true }, when: { type: 'date', optional: true } } } },
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect(changed.json).toMatchObject({
      id: schemaId,
      name: 'order_paid',
      object: 'custom-event-schema',
      updated_at: expect.any(String),
      schema: { properties: { amount: { type: 'number', optional: true }, note: { type: 'string', optional: true }, when: { type: 'date', optional: true } } },
    });
    expect((await api.call('track-custom-event', track({ note: 'x' }))).status).toBe(200);
    expect((await api.call('track-custom-event', track({ when: 'soon' }))).status).toBe(400);
    // By event name too, as GET /v1/custom-event-schemas/{schemaId} takes it.
    const byName = await management.call('update-custom-event-schema', {
      params: { projectId: a, customEventSchemaId: 'order_paid' },
      json: { schema: { properties: { when: { type: 'date', optional: true, deleted: true } } } },
    });
    expect(byName.json).toMatchObject({ schema: { properties: { when: { deleted: true } } } });
    expect((await api.call('get-custom-event-schema', { params: { schemaId } })).json).toEqual(byName.json);
  });

  it('deletes a schema: its events are refused from the reply on, and the name can be defined again', async () => {
    const { management, api, a, schemaId } = await setup();
    const params = { projectId: a, customEventSchemaId: schemaId };
    expect((await management.call('delete-custom-event-schema', { params })).status).toBe(204);
    expect((await api.call('get-custom-event-schema', { params: { schemaId } })).status).toBe(404);
    const refused = await api.call('track-custom-event', track({ amount: 1 }));
    expect(refused.status).toBe(404);
    expect(refused.json).toMatchObject({ resource_type: 'custom_event_schema' });
    const again = await management.call('delete-custom-event-schema', { params });
    expect(again.json).toMatchObject({ key: 'not_found', resource_type: 'custom_event_schema', resource_id: schemaId });
    expect((await api.call('create-custom-event-schema', { json: { name: 'order_paid', schema: { properties: {} } } })).status).toBe(200);
  });

  it('lets exactly one of concurrent deletes win', async () => {
    const { management, a, schemaId } = await setup();
    const params = { projectId: a, customEventSchemaId: schemaId };
    const replies = await Promise.all(Array.from({ length: 6 }, () => management.call('delete-custom-event-schema', { params })));
    expect(replies.map((r) => r.status).sort()).toEqual([204, 404, 404, 404, 404, 404]);
  });

  it('keeps every property of concurrent updates that each add one', async () => {
    const { management, api, a, schemaId } = await setup();
    const params = { projectId: a, customEventSchemaId: schemaId };
    const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
    const replies = await Promise.all(
      names.map((n) =>
        management.call('update-custom-event-schema', { params, json: { schema: { properties: { [n]: { type: 'string', optional: true } } } } }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(names.map(() => 200));
    const stored = (await api.call('get-custom-event-schema', { params: { schemaId } })).json as { schema: { properties: Record<string, unknown> } };
    expect(Object.keys(stored.schema.properties).sort()).toEqual(['amount', 'note', ...names]);
  });

  it("never reaches one project's schema under another project's id, and answers 404 project for a missing or deleted project", async () => {
    const { management, api, b, schemaId } = await setup();
    const body = { schema: { properties: { x: { type: 'string', optional: true } } } };
    for (const customEventSchemaId of [schemaId, 'order_paid']) {
      const put = await management.call('update-custom-event-schema', { params: { projectId: b, customEventSchemaId }, json: body });
      expect(put.json).toMatchObject({ code: 404, resource_type: 'custom_event_schema' });
      const del = await management.call('delete-custom-event-schema', { params: { projectId: b, customEventSchemaId } });
      expect(del.json).toMatchObject({ code: 404, resource_type: 'custom_event_schema' });
    }
    expect((await api.call('get-custom-event-schema', { params: { schemaId } })).json).toMatchObject({
      schema: { properties: { amount: { optional: false } } },
    });
    expect((await management.call('delete-project', { params: { projectId: b } })).status).toBe(204);
    for (const projectId of ['proj_nope', b]) {
      for (const reply of [
        await management.call('update-custom-event-schema', { params: { projectId, customEventSchemaId: schemaId }, json: body }),
        await management.call('delete-custom-event-schema', { params: { projectId, customEventSchemaId: schemaId } }),
      ])
        expect(reply.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'project', resource_id: projectId });
    }
  });

  it('replays an update sent again with the same Idempotency-Key', async () => {
    const { management, credentials, a, schemaId } = await setup();
    const params = { projectId: a, customEventSchemaId: schemaId };
    const headers = { ...credentials, 'idempotency-key': `ces-${schemaId}` };
    const json = { schema: { properties: { y: { type: 'boolean', optional: true } } } };
    const first = await management.call('update-custom-event-schema', { params, headers, json });
    const second = await management.call('update-custom-event-schema', { params, headers, json });
    expect(second.json).toEqual(first.json);
    expect(second.headers['Idempotent-Replayed']).toBe('true');
  });
});
