import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;

async function setup() {
  const runtime = testRuntime();
  const headers = managementHeaders(await newManagementKey(runtime));
  const management = apiClient({ runtime }, headers);
  const [a, b] = await Promise.all([newProject(runtime, 'brand A'), newProject(runtime, 'brand B')]);
  return { runtime, headers, management, a: a.project_id, b: b.project_id };
}

const brandBody = (name: string, more: Json = {}): Json => ({
  brand: { name, website_url: 'https://shop.example', privacy_policy_url: null },
  address: { street: 'Main 1', city: 'Warsaw', postal: '00-001', country: 'Poland' },
  contact: { email: 'hello@shop.example' },
  ...more,
});

describe('Branding of the Management API (/management/v1/projects/{projectId}/branding)', () => {
  it('creates, reads, lists, changes and deletes the one brand configuration of a project', async () => {
    const { management, a } = await setup();
    const created = await management.call('create-brand', { params: { projectId: a }, json: brandBody('Shop') });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^brd_/),
      brand: {
        name: 'Shop',
        privacy_policy_url: null,
        terms_of_use_url: null,
        permission_reminder: 'You are receiving this email because you opted in at our website.',
        website_url: 'https://shop.example',
      },
      address: { street: 'Main 1', city: 'Warsaw', postal: '00-001', state: null, country: 'Poland' },
      contact: { email: 'hello@shop.example', phone: null },
    });
    const brandingId = created.json.id as string;
    const params = { projectId: a, brandingId };
    expect((await management.call('get-brand', { params })).json).toEqual(created.json);
    expect((await management.call('list-brands', { params: { projectId: a } })).json).toEqual({
      object: 'list',
      data_ref: 'data',
      data: [created.json],
      total: 1,
    });

    const changed = await management.call('update-brand', { params, json: { brand: { name: 'Shop 2', website_url: null }, contact: { phone: '+48 1' } } });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect(changed.json).toMatchObject({
      brand: { name: 'Shop 2', website_url: null },
      contact: { email: 'hello@shop.example', phone: '+48 1' },
      address: { city: 'Warsaw' },
    });
    expect((await management.call('get-brand', { params })).json).toEqual(changed.json);

    expect((await management.call('delete-brand', { params })).status).toBe(204);
    const gone = await management.call('get-brand', { params });
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({
      key: 'not_found',
      resource_type: 'branding_details',
      resource_id: brandingId,
      details: `Cannot find branding_details with id ${brandingId}`,
    });
    expect((await management.call('delete-brand', { params })).status).toBe(404);
    expect((await management.call('list-brands', { params: { projectId: a } })).json).toMatchObject({ data: [], total: 0 });
    // Deleted, the project may have a brand again.
    expect((await management.call('create-brand', { params: { projectId: a }, json: brandBody('Again') })).status).toBe(200);
  });

  it("refuses a second brand with the reference's 409 branding_exist, once among concurrent creates", async () => {
    const { management, a } = await setup();
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => management.call('create-brand', { params: { projectId: a }, json: brandBody(`B${i}`) })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = replies.find((r) => r.status === 200)?.json as Json;
    const loser = replies.find((r) => r.status === 409)?.json as Json;
    expect(loser).toMatchObject({
      code: 409,
      key: 'branding_exist',
      message: 'Branding exist',
      details: 'Cannot exist more than one branding for given project',
      resource_id: winner.id,
    });
  });

  it("never shows one project's brand under another project's id", async () => {
    const { management, a, b } = await setup();
    const created = await management.call('create-brand', { params: { projectId: a }, json: brandBody('Only A') });
    const brandingId = created.json.id as string;
    expect((await management.call('list-brands', { params: { projectId: b } })).json).toMatchObject({ data: [], total: 0 });
    for (const op of ['get-brand', 'delete-brand'] as const) expect((await management.call(op, { params: { projectId: b, brandingId } })).status).toBe(404);
    expect((await management.call('update-brand', { params: { projectId: b, brandingId }, json: { brand: { name: 'x' } } })).status).toBe(404);
    expect((await management.call('get-brand', { params: { projectId: a, brandingId } })).json).toMatchObject({ brand: { name: 'Only A' } });
  });

  it('answers 404 project on every branding route for a project that does not exist or was deleted', async () => {
    const { management, b } = await setup();
    expect((await management.call('delete-project', { params: { projectId: b } })).status).toBe(204);
    for (const projectId of ['proj_nope', b]) {
      const replies = [
        await management.call('create-brand', { params: { projectId }, json: brandBody('X') }),
        await management.call('list-brands', { params: { projectId } }),
        await management.call('get-brand', { params: { projectId, brandingId: 'brd_1' } }),
        await management.call('update-brand', { params: { projectId, brandingId: 'brd_1' }, json: {} }),
        await management.call('delete-brand', { params: { projectId, brandingId: 'brd_1' } }),
      ];
      for (const reply of replies) {
        expect(reply.status).toBe(404);
        expect(reply.json).toMatchObject({ key: 'not_found', resource_type: 'project', details: `Cannot find project with id ${projectId}` });
      }
    }
  });

  it('refuses malformed URLs and emails with 400 and writes nothing', async () => {
    const { management, a } = await setup();
    const bad = await management.call('create-brand', { params: { projectId: a }, json: brandBody('X', { contact: { email: 'not-an-email' } }) });
    expect(bad.status).toBe(400);
    const badUrl = await management.call('create-brand', {
      params: { projectId: a },
      json: { ...brandBody('X'), brand: { name: 'X', website_url: 'javascript:alert(1)' } },
    });
    expect(badUrl.status).toBe(400);
    expect((await management.call('list-brands', { params: { projectId: a } })).json).toMatchObject({ total: 0 });
  });

  it('replays an update and a delete sent again with the same Idempotency-Key', async () => {
    const { management, a, headers: credentials } = await setup();
    const brandingId = (await management.call('create-brand', { params: { projectId: a }, json: brandBody('Idem') })).json.id as string;
    const params = { projectId: a, brandingId };
    const changed = { ...credentials, 'idempotency-key': `put-${brandingId}` };
    const first = await management.call('update-brand', { params, headers: changed, json: { brand: { name: 'Idem 2' } } });
    const second = await management.call('update-brand', { params, headers: changed, json: { brand: { name: 'Idem 2' } } });
    expect(second.json).toEqual(first.json);
    expect(second.headers['Idempotent-Replayed']).toBe('true');
    const headers = { ...credentials, 'idempotency-key': `del-${brandingId}` };
    expect((await management.call('delete-brand', { params, headers })).status).toBe(204);
    const again = await management.call('delete-brand', { params, headers });
    expect(again.status).toBe(204);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
  });
});
