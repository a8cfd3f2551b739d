import { describe, expect, it } from 'vitest';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { makeHandler as makeIntrospectHandler } from '../../../functions/oauth/introspect-oauth-token.js';
import { deleteAppKey, regenerateAppKey, setKeyStatus } from '../../../lib/app-keys/app-key.service.js';
import { ManualClock } from '../../../lib/clock.js';
import type { Runtime } from '../../../lib/runtime.js';
import type { IssuedKeyPair } from '../../../lib/app-keys/app-key.service.js';
import { call } from '../../support/invoke.js';
import { makeProbeHandler } from '../../support/probe-endpoint.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

async function token(runtime: Runtime, pair: IssuedKeyPair, scope = 'api'): Promise<string> {
  const reply = await call(makeTokenHandler({ runtime }), {
    path: '/v1/oauth/token',
    headers: keyPairHeaders(pair),
    form: { grant_type: 'client_credentials', scope },
  });
  expect(reply.status).toBe(200);
  return reply.json.access_token as string;
}

const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
// The probe route is test-only (not in the route table), so it has no documented contract.
const probe = { method: 'DELETE', path: '/v1/probe/ABC', pathParameters: { code: 'ABC' }, contract: false } as const;

describe('POST /v1/oauth/introspect', () => {
  it('describes a live token of the project with active true and expires_in counting down', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const accessToken = await token(runtime, pair, 'vouchers');
    clock.advance(345_000);
    const reply = await call(makeIntrospectHandler({ runtime }), {
      path: '/v1/oauth/introspect',
      headers: keyPairHeaders(pair),
      form: { access_token: accessToken },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      access_token: accessToken,
      client_id: pair.app_id,
      expires_at: Math.floor(Date.UTC(2026, 0, 1) / 1000) + 900,
      expires_in: 555,
      scope: 'vouchers',
      token_type: 'Bearer',
      active: true,
    });
  });

  it("answers only active false for an unknown, an expired or another project's token", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const other = await newProject(runtime);
    const mine = await token(runtime, pair);
    const theirs = await token(runtime, other);
    const introspect = (t: string) =>
      call(makeIntrospectHandler({ runtime }), { path: '/v1/oauth/introspect', headers: keyPairHeaders(pair), form: { access_token: t } });
    expect((await introspect('nope')).body).toEqual({ active: false });
    expect((await introspect(theirs)).body).toEqual({ active: false });
    clock.advance(900_000);
    const expired = await introspect(mine);
    expect(expired.status).toBe(200);
    expect(expired.body).toEqual({ active: false });
  });

  it('answers 400 missing_parameters for a body without access_token', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const reply = await call(makeIntrospectHandler({ runtime }), {
      path: '/v1/oauth/introspect',
      headers: keyPairHeaders(pair),
      form: { token: 'x' },
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 400, key: 'missing_parameters', message: 'Missing parameters: access_token' });
  });

  it('needs the key pair: a bearer token is not accepted', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const accessToken = await token(runtime, pair);
    const reply = await call(makeIntrospectHandler({ runtime }), {
      path: '/v1/oauth/introspect',
      headers: bearer(accessToken),
      form: { access_token: accessToken },
    });
    expect(reply.status).toBe(401);
    expect(reply.json.key).toBe('unauthorized');
  });
});

describe('bearer tokens on endpoints', () => {
  it('authenticates with Authorization: Bearer and with X-Service-OAuth where the route allows it', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const accessToken = await token(runtime, pair);
    const viaBearer = await call(makeProbeHandler({ runtime }), { ...probe, headers: bearer(accessToken) });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.json).toEqual({ project_id: pair.project_id, app_id: pair.app_id, via: 'oauth_token' });
    const viaService = await call(makeProbeHandler({ runtime }), { ...probe, headers: { 'x-service-oauth': accessToken } });
    expect(viaService.status).toBe(200);
  });

  it('rejects an expired token with 401 even while its item still exists', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const accessToken = await token(runtime, pair);
    clock.advance(899_000);
    expect((await call(makeProbeHandler({ runtime }), { ...probe, headers: bearer(accessToken) })).status).toBe(200);
    clock.advance(1_000);
    const reply = await call(makeProbeHandler({ runtime }), { ...probe, headers: bearer(accessToken) });
    expect(reply.status).toBe(401);
    expect(reply.json).toMatchObject({ code: 401, key: 'unauthorized' });
  });

  it('answers 403 missing_required_permission when the token scope does not cover the route', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const campaignsOnly = await token(runtime, pair, 'campaigns');
    const reply = await call(makeProbeHandler({ runtime }), { ...probe, headers: bearer(campaignsOnly) });
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ code: 403, key: 'missing_required_permission' });
    const vouchers = await token(runtime, pair, 'vouchers');
    expect((await call(makeProbeHandler({ runtime }), { ...probe, headers: bearer(vouchers) })).status).toBe(200);
  });

  it("stops a blocked key's tokens within 60 s and lets the key make no new ones", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const accessToken = await token(runtime, pair);
    const handler = makeProbeHandler({ runtime });
    expect((await call(handler, { ...probe, headers: bearer(accessToken) })).status).toBe(200);
    await setKeyStatus(runtime, pair.app_id, 'BLOCKED');
    clock.advance(60_000);
    expect((await call(handler, { ...probe, headers: bearer(accessToken) })).status).toBe(401);
    const fresh = await call(makeTokenHandler({ runtime }), {
      path: '/v1/oauth/token',
      headers: keyPairHeaders(pair),
      form: { grant_type: 'client_credentials' },
    });
    expect(fresh.status).toBe(401);
    await setKeyStatus(runtime, pair.app_id, 'ACTIVE');
    clock.advance(60_000);
    expect((await call(handler, { ...probe, headers: bearer(accessToken) })).status).toBe(200);
  });

  it("stops a deleted key's tokens within 60 s", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const accessToken = await token(runtime, pair);
    await deleteAppKey(runtime, pair.app_id);
    clock.advance(60_000);
    expect((await call(makeProbeHandler({ runtime }), { ...probe, headers: bearer(accessToken) })).status).toBe(401);
    const introspected = await call(makeIntrospectHandler({ runtime }), {
      path: '/v1/oauth/introspect',
      headers: keyPairHeaders(await newProject(runtime)),
      form: { access_token: accessToken },
    });
    expect(introspected.body).toEqual({ active: false });
  });

  it("keeps a regenerated key's tokens working while the old key token stops at once", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const accessToken = await token(runtime, pair);
    const renewed = await regenerateAppKey(runtime, pair.app_id);
    clock.advance(120_000);
    expect((await call(makeProbeHandler({ runtime }), { ...probe, headers: bearer(accessToken) })).status).toBe(200);
    expect((await call(makeProbeHandler({ runtime }), { ...probe, headers: keyPairHeaders(pair) })).status).toBe(401);
    expect((await call(makeProbeHandler({ runtime }), { ...probe, headers: keyPairHeaders(renewed) })).status).toBe(200);
  });
});
