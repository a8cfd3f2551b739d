import { describe, expect, it } from 'vitest';
import { makeHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { ManualClock } from '../../../lib/clock.js';
import { setKeyPermissions } from '../../../lib/app-keys/app-key.service.js';
import { call } from '../../support/invoke.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const path = '/v1/oauth/token';

describe('POST /v1/oauth/token', () => {
  it('issues a 900-second bearer token with the requested scopes', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const reply = await call(makeHandler({ runtime }), {
      path,
      headers: keyPairHeaders(pair),
      form: { grant_type: 'client_credentials', scope: 'vouchers campaigns' },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['Cache-Control']).toBe('no-store');
    const now = Math.floor(clock.now().getTime() / 1000);
    expect(reply.json).toEqual({
      access_token: expect.stringMatching(/^[0-9A-Za-z]{50}$/),
      client_id: pair.app_id,
      expires_at: now + 900,
      expires_in: 900,
      scope: 'vouchers campaigns',
      token_type: 'Bearer',
    });
  });

  it('defaults the scope to api when none is asked for', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const reply = await call(makeHandler({ runtime }), { path, headers: keyPairHeaders(pair), form: { grant_type: 'client_credentials' } });
    expect(reply.status).toBe(200);
    expect(reply.json.scope).toBe('api');
  });

  it.each([
    ['vouchers,campaigns', 'vouchers,campaigns'],
    ['vouchers bogus', 'bogus'],
    ['API', 'API'],
  ])('refuses scope %j with 400 invalid_scope naming %j', async (scope, bad) => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const reply = await call(makeHandler({ runtime }), { path, headers: keyPairHeaders(pair), form: { grant_type: 'client_credentials', scope } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 400, key: 'invalid_scope', message: `Invalid scope: ${bad}` });
    expect(reply.json.request_id).toMatch(/^v-/);
  });

  it("issues the reference's `skus` and the spec's `SKUs` alike, echoing each as asked, also to a key permitted the other spelling", async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const handler = makeHandler({ runtime });
    for (const scope of ['skus', 'SKUs', 'skus vouchers']) {
      const reply = await call(handler, { path, headers: keyPairHeaders(pair), form: { grant_type: 'client_credentials', scope } });
      expect(reply.status, scope).toBe(200);
      expect(reply.json.scope).toBe(scope);
    }
    await setKeyPermissions(runtime, pair.app_id, ['SKUs']);
    const other = await call(handler, { path, headers: keyPairHeaders(pair), form: { grant_type: 'client_credentials', scope: 'skus' } });
    expect(other.status).toBe(200);
    expect(other.json.scope).toBe('skus');
  });

  it('refuses a scope the key is not permitted to use', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    await setKeyPermissions(runtime, pair.app_id, ['vouchers']);
    const handler = makeHandler({ runtime });
    const denied = await call(handler, { path, headers: keyPairHeaders(pair), form: { grant_type: 'client_credentials', scope: 'campaigns' } });
    expect(denied.status).toBe(400);
    expect(denied.json).toMatchObject({ key: 'invalid_scope', message: 'Invalid scope: campaigns' });
    const allowed = await call(handler, { path, headers: keyPairHeaders(pair), form: { grant_type: 'client_credentials', scope: 'vouchers' } });
    expect(allowed.status).toBe(200);
  });

  it('refuses another grant type with invalid_grant_type, and a missing one with missing_parameters', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const handler = makeHandler({ runtime });
    const wrong = await call(handler, { path, headers: keyPairHeaders(pair), form: { grant_type: 'password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.key).toBe('invalid_grant_type');
    const missing = await call(handler, { path, headers: keyPairHeaders(pair), form: { scope: 'api' } });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ key: 'missing_parameters', message: 'Missing parameters: grant_type' });
  });

  it('answers 401 unauthorized without the key pair or with a wrong token', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const handler = makeHandler({ runtime });
    const none = await call(handler, { path, form: { grant_type: 'client_credentials' } });
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ code: 401, key: 'unauthorized', message: 'Unauthorized' });
    const wrong = await call(handler, {
      path,
      headers: { 'x-app-id': pair.app_id, 'x-app-token': `${pair.app_token}x` },
      form: { grant_type: 'client_credentials' },
    });
    expect(wrong.status).toBe(401);
  });

  it('refuses a JSON body with 415', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const reply = await call(makeHandler({ runtime }), { path, headers: keyPairHeaders(pair), json: { grant_type: 'client_credentials' } });
    expect(reply.status).toBe(415);
    expect(reply.json).toMatchObject({ code: 415, key: 'unsupported_media_type' });
  });
});
