import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;
type KeyPair = { app_id: string; app_token: string };
const SHOP = 'https://shop.example';

async function setup() {
  const clock = new ManualClock();
  const runtime = testRuntime({ clock });
  const management = apiClient({ runtime }, managementHeaders(await newManagementKey(runtime)));
  const api = apiClient({ runtime }, {});
  return { runtime, clock, management, api };
}

const projectBody = (name: string, more: Json = {}): Json => ({ name, case_sensitive_codes: true, timezone: 'Europe/Warsaw', currency: 'PLN', ...more });
const server = (k: KeyPair) => ({ 'x-app-id': k.app_id, 'x-app-token': k.app_token });
const client = (k: KeyPair, origin?: string) => ({ 'x-client-application-id': k.app_id, 'x-client-token': k.app_token, ...(origin ? { origin } : {}) });

describe('Projects of the Management API (/management/v1/projects)', () => {
  it("creates a project whose server and client key pairs work at once, the client key from the project's trusted domains", async () => {
    const { management, api } = await setup();
    const reply = await management.call('create-project', {
      json: projectBody('Shop', { description: 'EU shop', client_trusted_domains: [`${SHOP}/`], client_redeem_enabled: true }),
    });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    expect(reply.json).toMatchObject({
      name: 'Shop',
      description: 'EU shop',
      timezone: 'Europe/Warsaw',
      currency: 'PLN',
      case_sensitive_codes: true,
      api_version: 'v2018-08-01',
      webhook_version: 'v2024-01-01',
      client_trusted_domains: [SHOP],
      client_redeem_enabled: true,
      client_publish_enabled: false,
      is_sandbox: false,
    });
    expect(reply.json.id).toMatch(/^proj_/);
    const serverKey = reply.json.server_side_key as KeyPair;
    const clientKey = reply.json.client_side_key as KeyPair;
    const created = await api.call('create-campaign', {
      json: {
        name: 'Spring',
        campaign_type: 'DISCOUNT_COUPONS',
        type: 'AUTO_UPDATE',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
      },
      headers: server(serverKey),
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect((await api.call('list-promotion-tiers-client-side', { headers: client(clientKey, SHOP) })).status).toBe(200);
    const untrusted = await api.call('list-promotion-tiers-client-side', { headers: client(clientKey, 'https://evil.example') });
    expect(untrusted.status).toBe(403);
    // The project is the keys' tenant: the management view and the key agree.
    expect((await management.call('get-project', { params: { projectId: reply.json.id as string } })).json.name).toBe('Shop');
  });

  it('refuses what this deployment cannot honour: case-insensitive codes, users, a bad origin, a bad time zone or currency', async () => {
    const { management } = await setup();
    const refused = [
      projectBody('A', { case_sensitive_codes: false }),
      projectBody('B', { users: [{ login: 'ann@shop.example', role: 'ADMIN' }] }),
      projectBody('C', { client_trusted_domains: ['shop.example/path'] }),
      projectBody('D', { timezone: 'Mars/Olympus' }),
      projectBody('E', { currency: 'euro' }),
      { name: 'F', timezone: 'UTC', currency: 'EUR' },
    ];
    for (const json of refused) {
      const reply = await management.call('create-project', { json });
      expect(reply.status, JSON.stringify(json)).toBe(400);
      expect(reply.json).toMatchObject({ code: 400 });
    }
  });

  it('lists every project with its total, and gets one; an unknown id is 404', async () => {
    const { runtime, clock, management } = await setup();
    const a = (await management.call('create-project', { json: projectBody('List A') })).json;
    clock.advance(1000);
    const b = (await management.call('create-project', { json: projectBody('List B') })).json;
    // A project made by the operator CLI is listed too.
    const cli = await newProject(runtime, 'CLI made');
    const list = await management.call('list-projects');
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ object: 'list', data_ref: 'data' });
    const data = list.json.data as Json[];
    expect(list.json.total).toBe(data.length);
    const ids = data.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id, cli.project_id]));
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    expect(data.find((p) => p.id === cli.project_id)).toMatchObject({ name: 'CLI made', timezone: 'UTC', client_trusted_domains: [] });
    expect(data.some((p) => 'server_side_key' in p)).toBe(false);
    const got = await management.call('get-project', { params: { projectId: a.id as string } });
    expect(got.json).toEqual(Object.fromEntries(Object.entries(a).filter(([k]) => !k.endsWith('_side_key'))));
    const missing = await management.call('get-project', { params: { projectId: 'proj_nope' } });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'project' });
  });

  it('updates only the fields sent; new trusted domains move the client key, and the switches open client routes', async () => {
    const { management, api } = await setup();
    const created = (await management.call('create-project', { json: projectBody('Before', { client_trusted_domains: [SHOP] }) })).json;
    const projectId = created.id as string;
    const clientKey = created.client_side_key as KeyPair;
    const reply = await management.call('update-project', {
      params: { projectId },
      json: {
        name: 'After',
        client_trusted_domains: ['https://new.example'],
        client_publish_enabled: true,
        api_usage_notifications: { api_calls: { enabled: true, value: 70, in_app: true, emails: ['ops@shop.example'] } },
        default_code_config: { charset: '0123456789' },
      },
    });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    expect(reply.json).toMatchObject({
      name: 'After',
      timezone: 'Europe/Warsaw',
      client_trusted_domains: ['https://new.example'],
      client_publish_enabled: true,
      default_code_config: { charset: '0123456789' },
    });
    const usage = reply.json.api_usage_notifications as Record<string, Json>;
    expect(usage.api_calls).toEqual({ enabled: true, value: 70, in_app: true, emails: ['ops@shop.example'] });
    expect(usage.messages).toMatchObject({ enabled: false });
    expect((await api.call('list-promotion-tiers-client-side', { headers: client(clientKey, 'https://new.example') })).status).toBe(200);
    expect((await api.call('list-promotion-tiers-client-side', { headers: client(clientKey, SHOP) })).status).toBe(403);
    expect((await management.call('get-project', { params: { projectId } })).json).toEqual(reply.json);
    expect((await management.call('update-project', { params: { projectId: 'proj_nope' }, json: { name: 'x' } })).status).toBe(404);
  });

  it('deletes a project: its server and client keys get 401 right after the 204, it leaves the list, and a second delete is 404', async () => {
    const { management, api } = await setup();
    const created = (await management.call('create-project', { json: projectBody('Doomed', { client_trusted_domains: [SHOP] }) })).json;
    const projectId = created.id as string;
    const serverKey = created.server_side_key as KeyPair;
    const clientKey = created.client_side_key as KeyPair;
    expect((await api.call('list-campaigns', { headers: server(serverKey) })).status).toBe(200);
    const deleted = await management.call('delete-project', { params: { projectId } });
    expect(deleted.status).toBe(204);
    const after = await api.call('list-campaigns', { headers: server(serverKey) });
    expect(after.status).toBe(401);
    expect(after.json).toMatchObject({ code: 401, key: 'unauthorized', details: 'The X-App-Id and X-App-Token pair is not valid' });
    expect((await api.call('list-promotion-tiers-client-side', { headers: client(clientKey, SHOP) })).status).toBe(401);
    expect((await management.call('get-project', { params: { projectId } })).status).toBe(404);
    expect(((await management.call('list-projects')).json.data as Json[]).some((p) => p.id === projectId)).toBe(false);
    expect((await management.call('delete-project', { params: { projectId } })).status).toBe(404);
  });

  it('replays a create with the same Idempotency-Key as the same project with both tokens replaced, never the first tokens', async () => {
    const { management, api } = await setup();
    const headersWithKey = { ...managementHeaders(await newManagementKey(testRuntime())), 'idempotency-key': `create-${Date.now()}` };
    const first = await management.call('create-project', { json: projectBody('Once'), headers: headersWithKey });
    const again = await management.call('create-project', { json: projectBody('Once'), headers: headersWithKey });
    expect(again.status).toBe(200);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.json.id).toBe(first.json.id);
    const [k1, k2] = [first.json.server_side_key as KeyPair, again.json.server_side_key as KeyPair];
    expect(k2.app_id).toBe(k1.app_id);
    expect(k2.app_token).not.toBe(k1.app_token);
    expect((await api.call('list-campaigns', { headers: server(k1) })).status).toBe(401);
    expect((await api.call('list-campaigns', { headers: server(k2) })).status).toBe(200);
    const other = await management.call('create-project', { json: projectBody('Other'), headers: headersWithKey });
    expect(other.status).toBe(422);
  });
});
