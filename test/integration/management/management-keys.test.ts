import { describe, expect, it } from 'vitest';
import { main } from '../../../scripts/admin/cli.js';
import { apiClient } from '../../support/api-client.js';
import type { Reply } from '../../support/invoke.js';
import { clientKeyHeaders, engines, keyPairHeaders, managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

/** Runs the operator CLI in-process against the test DynamoDB Local. */
async function admin(...argv: string[]) {
  const e = engines();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(
    [...argv, '--endpoint', e.dynamoEndpoint, '--table', e.tableName],
    { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) },
    {},
  );
  const out = stdout.join('\n');
  return { code, out, stderr, json: (out ? JSON.parse(out) : undefined) as unknown };
}

/** The spec's error object for a refusal: code, key, message, details and request_id, nothing of the secret. */
function expectRefusal(reply: Reply, status: 401 | 403, details: RegExp | string): void {
  expect(reply.status, JSON.stringify(reply.json)).toBe(status);
  expect(reply.json).toMatchObject({
    code: status,
    key: status === 401 ? 'unauthorized' : 'forbidden',
    message: status === 401 ? 'Unauthorized' : 'Forbidden',
  });
  expect(reply.json.details).toMatch(details);
  expect(reply.json.request_id).toEqual(expect.any(String));
}

describe('management keys: made by the operator CLI, they open /management/v1/* and nothing else', () => {
  it('creates a key whose printed pair lists the projects, and lists keys without token or hash', async () => {
    const created = await admin('management-key', 'create', '--name', 'ops');
    expect(created.code).toBe(0);
    const key = created.json as { management_id: string; management_token: string };
    expect(Object.keys(key).sort()).toEqual(['management_id', 'management_token']);
    expect(key.management_id).toMatch(/^mgmt_/);
    const api = apiClient({ runtime: testRuntime() }, managementHeaders(key));
    expect((await api.call('list-projects')).status).toBe(200);
    const listed = await admin('management-key', 'list');
    expect(listed.code).toBe(0);
    const mine = (listed.json as Record<string, unknown>[]).find((k) => k.management_id === key.management_id);
    expect(mine).toMatchObject({ name: 'ops', status: 'ACTIVE', ip_allow_list: null });
    expect(listed.out).not.toContain(key.management_token);
    expect(listed.out).not.toMatch(/hash/i);
  });

  it('refuses a blocked key at once, admits it again once unblocked, and refuses a deleted or regenerated-away token', async () => {
    const runtime = testRuntime();
    const key = await newManagementKey(runtime);
    const api = apiClient({ runtime }, managementHeaders(key));
    expect((await admin('management-key', 'block', key.management_id)).code).toBe(0);
    expectRefusal(await api.call('list-projects'), 401, 'The management key is blocked');
    expect((await admin('management-key', 'unblock', key.management_id)).code).toBe(0);
    expect((await api.call('list-projects')).status).toBe(200);
    const regenerated = (await admin('management-key', 'regenerate', key.management_id)).json as typeof key;
    expectRefusal(await api.call('list-projects'), 401, 'The X-Management-Id and X-Management-Token pair is not valid');
    expect((await api.call('list-projects', { headers: managementHeaders(regenerated) })).status).toBe(200);
    expect((await admin('management-key', 'delete', regenerated.management_id)).code).toBe(0);
    expectRefusal(
      await api.call('list-projects', { headers: managementHeaders(regenerated) }),
      401,
      'The X-Management-Id and X-Management-Token pair is not valid',
    );
  });

  it("refuses requests from outside a key's IP allow-list with 403", async () => {
    const runtime = testRuntime();
    const key = await newManagementKey(runtime);
    expect((await admin('management-key', 'ip-allow-list', key.management_id, '--cidrs', '203.0.113.0/24')).code).toBe(0);
    const api = apiClient({ runtime }, managementHeaders(key));
    expectRefusal(await api.call('list-projects', { sourceIp: '198.51.100.7' }), 403, /not allowed from 198\.51\.100\.7/);
    expect((await api.call('list-projects', { sourceIp: '203.0.113.9' })).status).toBe(200);
  });

  it('refuses project keys and tokens on /management/v1/*: server pair, client pair, bearer token, and their values sent as a management pair', async () => {
    const runtime = testRuntime();
    const project = await newProject(runtime);
    const api = apiClient({ runtime }, {});
    const token = await api.call('generate-oauth-token', { form: { grant_type: 'client_credentials', scope: 'api' }, headers: keyPairHeaders(project) });
    const accessToken = token.json.access_token as string;
    const missing = 'Send X-Management-Id and X-Management-Token';
    expectRefusal(await api.call('list-projects', { headers: keyPairHeaders(project) }), 401, missing);
    expectRefusal(await api.call('list-projects', { headers: clientKeyHeaders(project.client) }), 401, missing);
    expectRefusal(await api.call('list-projects', { headers: { authorization: `Bearer ${accessToken}` } }), 401, missing);
    expectRefusal(await api.call('get-project', { params: { projectId: project.project_id }, headers: keyPairHeaders(project) }), 401, missing);
    for (const pair of [project, project.client]) {
      const asManagement = { 'x-management-id': pair.app_id, 'x-management-token': pair.app_token };
      expectRefusal(await api.call('list-projects', { headers: asManagement }), 401, 'The X-Management-Id and X-Management-Token pair is not valid');
    }
    expectRefusal(await api.call('list-projects', { headers: { 'x-management-id': 'mgmt_x' } }), 401, 'Send both X-Management-Id and X-Management-Token');
  });

  it('is refused on /v1/* and /client/v1/*, as headers of its own and as values of the project headers', async () => {
    const runtime = testRuntime();
    const key = await newManagementKey(runtime);
    const api = apiClient({ runtime }, {});
    expectRefusal(await api.call('list-campaigns', { headers: managementHeaders(key) }), 401, /Send X-App-Id and X-App-Token/);
    expectRefusal(
      await api.call('list-promotion-tiers-client-side', { headers: managementHeaders(key) }),
      401,
      /Send X-Client-Application-Id and X-Client-Token/,
    );
    const asServer = { 'x-app-id': key.management_id, 'x-app-token': key.management_token };
    expectRefusal(await api.call('list-campaigns', { headers: asServer }), 401, 'The X-App-Id and X-App-Token pair is not valid');
    const asClient = { 'x-client-application-id': key.management_id, 'x-client-token': key.management_token };
    expectRefusal(
      await api.call('list-promotion-tiers-client-side', { headers: asClient }),
      401,
      'The X-Client-Application-Id and X-Client-Token pair is not valid',
    );
    // An OAuth token cannot be minted with it either: the token endpoint takes a server pair only.
    expectRefusal(
      await api.call('generate-oauth-token', { form: { grant_type: 'client_credentials' }, headers: asServer }),
      401,
      'The X-App-Id and X-App-Token pair is not valid',
    );
  });
});
