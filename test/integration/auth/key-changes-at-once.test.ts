import { describe, expect, it } from 'vitest';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { setKeyIpAllowList, setKeyPermissions, setKeyStatus } from '../../../lib/app-keys/app-key.service.js';
import { ManualClock } from '../../../lib/clock.js';
import { call } from '../../support/invoke.js';
import { makeProbeHandler } from '../../support/probe-endpoint.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

// The probe route is test-only (not in the route table), so it has no documented contract.
const probe = { method: 'DELETE', path: '/v1/probe/ABC', pathParameters: { code: 'ABC' }, contract: false } as const;

/** A runtime whose clock never moves: nothing may expire from the key cache during a test. */
async function setUp() {
  const runtime = testRuntime({ clock: new ManualClock(Date.UTC(2026, 0, 1)) });
  const pair = await newProject(runtime);
  const issue = async (sourceIp?: string) =>
    call(makeTokenHandler({ runtime }), {
      path: '/v1/oauth/token',
      headers: keyPairHeaders(pair),
      form: { grant_type: 'client_credentials' },
      ...(sourceIp ? { sourceIp } : {}),
    });
  const handler = makeProbeHandler({ runtime });
  const withToken = (token: string, sourceIp?: string) =>
    call(handler, { ...probe, headers: { authorization: `Bearer ${token}` }, ...(sourceIp ? { sourceIp } : {}) });
  return { runtime, pair, issue, withToken };
}

describe('a key change that lifts a restriction reaches bearer tokens at once (no cached refusal)', () => {
  it('lets a token through right after its key is unblocked, though the blocked key was just read', async () => {
    const { runtime, pair, issue, withToken } = await setUp();
    const token = (await issue()).json.access_token as string;
    await setKeyStatus(runtime, pair.app_id, 'BLOCKED');
    expect((await withToken(token)).status).toBe(401);

    await setKeyStatus(runtime, pair.app_id, 'ACTIVE');
    const fresh = (await issue()).json.access_token as string;

    expect((await withToken(fresh)).status).toBe(200);
    expect((await withToken(token)).status).toBe(200);
  });

  it('lets a token through right after its key allows any address again', async () => {
    const { runtime, pair, issue, withToken } = await setUp();
    await setKeyIpAllowList(runtime, pair.app_id, ['203.0.113.0/24']);
    const token = (await issue('203.0.113.7')).json.access_token as string;
    expect((await withToken(token, '198.51.100.1')).status).toBe(403);

    await setKeyIpAllowList(runtime, pair.app_id, null);

    expect((await withToken(token, '198.51.100.1')).status).toBe(200);
  });

  it('lets a token through right after its key is granted the scope it lacked', async () => {
    const { runtime, pair, issue, withToken } = await setUp();
    const token = (await issue()).json.access_token as string;
    await setKeyPermissions(runtime, pair.app_id, ['campaigns']);
    const refused = await withToken(token);
    expect(refused.status).toBe(403);
    expect(refused.json.key).toBe('missing_required_permission');

    await setKeyPermissions(runtime, pair.app_id, null);

    expect((await withToken(token)).status).toBe(200);
  });

  it('still serves an admitting key from the cache: a block reaches tokens within the cache age, as the spec allows', async () => {
    const { runtime, pair, issue, withToken } = await setUp();
    const token = (await issue()).json.access_token as string;
    expect((await withToken(token)).status).toBe(200);

    await setKeyStatus(runtime, pair.app_id, 'BLOCKED');

    expect((await withToken(token)).status).toBe(200);
  });
});
