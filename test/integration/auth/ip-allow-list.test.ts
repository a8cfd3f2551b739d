import { describe, expect, it } from 'vitest';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { setKeyIpAllowList, setKeyPermissions } from '../../../lib/app-keys/app-key.service.js';
import { ManualClock } from '../../../lib/clock.js';
import { call } from '../../support/invoke.js';
import { makeProbeHandler } from '../../support/probe-endpoint.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

// The probe route is test-only (not in the route table), so it has no documented contract.
const probe = { method: 'DELETE', path: '/v1/probe/ABC', pathParameters: { code: 'ABC' }, contract: false } as const;

describe('key permissions and IP allow-lists', () => {
  it('answers 403 forbidden to a key pair and to its token from outside the allow-list', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const tokenReply = await call(makeTokenHandler({ runtime }), {
      path: '/v1/oauth/token',
      headers: keyPairHeaders(pair),
      form: { grant_type: 'client_credentials' },
      sourceIp: '203.0.113.7',
    });
    const accessToken = tokenReply.json.access_token as string;
    await setKeyIpAllowList(runtime, pair.app_id, ['203.0.113.0/24', '2001:db8::/32']);
    clock.advance(60_000);
    const handler = makeProbeHandler({ runtime });

    const outsidePair = await call(handler, { ...probe, headers: keyPairHeaders(pair), sourceIp: '198.51.100.1' });
    expect(outsidePair.status).toBe(403);
    expect(outsidePair.json).toMatchObject({ code: 403, key: 'forbidden' });
    const outsideToken = await call(handler, { ...probe, headers: { authorization: `Bearer ${accessToken}` }, sourceIp: '198.51.100.1' });
    expect(outsideToken.status).toBe(403);
    const outsideIssue = await call(makeTokenHandler({ runtime }), {
      path: '/v1/oauth/token',
      headers: keyPairHeaders(pair),
      form: { grant_type: 'client_credentials' },
      sourceIp: '198.51.100.1',
    });
    expect(outsideIssue.status).toBe(403);

    expect((await call(handler, { ...probe, headers: keyPairHeaders(pair), sourceIp: '203.0.113.99' })).status).toBe(200);
    expect((await call(handler, { ...probe, headers: { authorization: `Bearer ${accessToken}` }, sourceIp: '2001:db8::1' })).status).toBe(200);
  });

  it("limits key-pair requests to the key's permissions, and a token to what its key may still do", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const tokenReply = await call(makeTokenHandler({ runtime }), {
      path: '/v1/oauth/token',
      headers: keyPairHeaders(pair),
      form: { grant_type: 'client_credentials', scope: 'api' },
    });
    const accessToken = tokenReply.json.access_token as string;
    await setKeyPermissions(runtime, pair.app_id, ['campaigns']);
    clock.advance(60_000);
    const handler = makeProbeHandler({ runtime });
    const byPair = await call(handler, { ...probe, headers: keyPairHeaders(pair) });
    expect(byPair.status).toBe(403);
    expect(byPair.json.key).toBe('missing_required_permission');
    expect((await call(handler, { ...probe, headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(403);
    await setKeyPermissions(runtime, pair.app_id, ['vouchers']);
    expect((await call(handler, { ...probe, headers: keyPairHeaders(pair) })).status).toBe(200);
  });
});
