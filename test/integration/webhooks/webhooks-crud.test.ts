import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { CLOUD_TARGET_POLICY } from '../../../lib/webhooks/target-guard.js';
import { LOCAL_TARGET_POLICY } from '../../../lib/webhooks/target-policy.js';
import { apiClient } from '../../support/api-client.js';
import { managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

async function setup(policy = LOCAL_TARGET_POLICY) {
  const runtime = testRuntime({ clock: new ManualClock() });
  const management = apiClient({ runtime, webhookTargets: () => policy }, managementHeaders(await newManagementKey(runtime)));
  const { project_id: projectId } = await newProject(runtime);
  return { runtime, management, projectId };
}

describe('Webhooks of a project (/management/v1/projects/{projectId}/webhooks)', () => {
  it('creates, lists, gets, replaces and deletes a webhook with the reference shapes', async () => {
    const { management, projectId } = await setup();
    const created = await management.call('create-webhook', {
      params: { projectId },
      json: { target_url: 'http://127.0.0.1:9/hook', events: ['redemption.succeeded', 'customer.created', 'redemption.succeeded'] },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json).toMatchObject({
      object: 'webhook',
      target_url: 'http://127.0.0.1:9/hook',
      events: ['redemption.succeeded', 'customer.created'],
      active: true,
    });
    const webhookId = created.json.id as string;
    expect(webhookId).toMatch(/^wh_/);
    const list = await management.call('list-webhooks', { params: { projectId } });
    expect(list.json).toMatchObject({ object: 'list', data_ref: 'data', total: 1, data: [{ id: webhookId }] });
    const updated = await management.call('update-webhook', {
      params: { projectId, webhookId },
      json: { target_url: 'http://127.0.0.1:9/other', events: ['voucher.created'], active: false },
    });
    expect(updated.json).toMatchObject({ id: webhookId, target_url: 'http://127.0.0.1:9/other', events: ['voucher.created'], active: false });
    expect((await management.call('get-webhook', { params: { projectId, webhookId } })).json).toMatchObject({ active: false, events: ['voucher.created'] });
    expect((await management.call('delete-webhook', { params: { projectId, webhookId } })).status).toBe(204);
    const gone = await management.call('get-webhook', { params: { projectId, webhookId } });
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ key: 'not_found', resource_type: 'webhook' });
    expect((await management.call('delete-webhook', { params: { projectId, webhookId } })).status).toBe(404);
  });

  it('refuses unknown event names and an unknown project', async () => {
    const { management, projectId } = await setup();
    const bad = await management.call('create-webhook', { params: { projectId }, json: { target_url: 'http://127.0.0.1:9/', events: ['customer.exploded'] } });
    expect(bad.status).toBe(400);
    const none = await management.call('create-webhook', {
      params: { projectId: 'proj_missing' },
      json: { target_url: 'http://127.0.0.1:9/', events: ['voucher.created'] },
    });
    expect(none.status).toBe(404);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data', 'metadata'],
    ['http://10.0.0.5/hook', 'private'],
    ['http://[::ffff:192.168.1.1]/hook', 'mapped private'],
    ['http://user:pw@127.0.0.1/hook', 'credentials'],
    ['ftp://127.0.0.1/hook', 'scheme'],
  ])('refuses the target %s (%s) at creation and at update', async (target) => {
    const { management, projectId } = await setup();
    const refused = await management.call('create-webhook', { params: { projectId }, json: { target_url: target, events: ['voucher.created'] } });
    expect(refused.status, JSON.stringify(refused.json)).toBe(400);
    expect(refused.json).toMatchObject({ key: 'invalid_payload' });
    expect(String(refused.json.details)).toMatch(/^target_url /);
    const ok = await management.call('create-webhook', { params: { projectId }, json: { target_url: 'http://127.0.0.1:9/', events: ['voucher.created'] } });
    const put = await management.call('update-webhook', {
      params: { projectId, webhookId: ok.json.id as string },
      json: { target_url: target, events: ['voucher.created'] },
    });
    expect(put.status).toBe(400);
    expect((await management.call('list-webhooks', { params: { projectId } })).json.total).toBe(1);
  });

  it('takes https only, and no loopback, under the deployed policy', async () => {
    const { management, projectId } = await setup(CLOUD_TARGET_POLICY);
    for (const target of ['http://93.184.216.34/hook', 'https://127.0.0.1/hook', 'https://localhost/hook']) {
      const refused = await management.call('create-webhook', { params: { projectId }, json: { target_url: target, events: ['voucher.created'] } });
      expect(refused.status, target).toBe(400);
    }
    const public_ = await management.call('create-webhook', {
      params: { projectId },
      json: { target_url: 'https://93.184.216.34/hook', events: ['voucher.created'] },
    });
    expect(public_.status, JSON.stringify(public_.json)).toBe(200);
  });
});
