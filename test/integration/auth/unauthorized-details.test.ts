import { describe, expect, it } from 'vitest';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { deleteAppKey } from '../../../lib/app-keys/app-key.service.js';
import { UNAUTHORIZED_DETAILS } from '../../../lib/auth/authenticate.js';
import { call } from '../../support/invoke.js';
import { makeProbeHandler } from '../../support/probe-endpoint.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

// The probe route is test-only (not in the route table), so it has no documented contract.
const probe = { method: 'DELETE', path: '/v1/probe/ABC', pathParameters: { code: 'ABC' }, contract: false } as const;

describe('401 details say what was wrong with the credentials', () => {
  const runtime = testRuntime();
  const handler = makeProbeHandler({ runtime });
  const refused = async (headers: Record<string, string>) => {
    const reply = await call(handler, { ...probe, headers });
    expect(reply.status).toBe(401);
    expect(reply.json).toMatchObject({ code: 401, key: 'unauthorized', message: 'Unauthorized' });
    return reply.json.details;
  };

  it('names a missing header, half a key pair and a malformed Authorization header', async () => {
    expect(await refused({})).toBe(UNAUTHORIZED_DETAILS.missing);
    expect(await refused({ 'x-app-id': 'some-app' })).toBe(UNAUTHORIZED_DETAILS.halfPair);
    expect(await refused({ 'x-app-token': 'some-token' })).toBe(UNAUTHORIZED_DETAILS.halfPair);
    expect(await refused({ authorization: 'Basic dXNlcjpwYXNz' })).toBe(UNAUTHORIZED_DETAILS.malformedBearer);
    expect(await refused({ authorization: 'Bearer' })).toBe(UNAUTHORIZED_DETAILS.malformedBearer);
  });

  it('says the same for an unknown app id, a wrong app token and a deleted key, so app ids cannot be probed', async () => {
    const pair = await newProject(runtime);
    const gone = await newProject(runtime);
    await deleteAppKey(runtime, gone.app_id);

    const unknown = await refused({ 'x-app-id': 'no-such-app-id', 'x-app-token': pair.app_token });
    const wrong = await refused({ 'x-app-id': pair.app_id, 'x-app-token': 'wrong-token' });
    const deleted = await refused(keyPairHeaders(gone));

    expect(unknown).toBe(UNAUTHORIZED_DETAILS.badPair);
    expect(wrong).toBe(unknown);
    expect(deleted).toBe(unknown);
  });

  it('tells an unknown token from a token whose key was deleted (the caller held a real token)', async () => {
    const pair = await newProject(runtime);
    const issued = await call(makeTokenHandler({ runtime }), {
      path: '/v1/oauth/token',
      headers: keyPairHeaders(pair),
      form: { grant_type: 'client_credentials' },
    });
    const token = issued.json.access_token as string;

    expect(await refused({ authorization: 'Bearer not-a-real-token' })).toBe(UNAUTHORIZED_DETAILS.badToken);
    await deleteAppKey(runtime, pair.app_id);
    expect(await refused({ authorization: `Bearer ${token}` })).toBe(UNAUTHORIZED_DETAILS.keyGone);
  });
});

describe('invalid_scope details', () => {
  const runtime = testRuntime();
  const request = async (scope: string) => {
    const pair = await newProject(runtime);
    return call(makeTokenHandler({ runtime }), { path: '/v1/oauth/token', headers: keyPairHeaders(pair), form: { grant_type: 'client_credentials', scope } });
  };

  it('says that scopes are separated by spaces when they are sent separated by commas', async () => {
    const reply = await request('vouchers,campaigns');
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'invalid_scope', message: 'Invalid scope: vouchers,campaigns' });
    expect(reply.json.details).toMatch(/separated by spaces/);
  });

  it('lists the known scopes for an unknown one', async () => {
    const reply = await request('vouchers bogus');
    expect(reply.json).toMatchObject({ key: 'invalid_scope', message: 'Invalid scope: bogus' });
    expect(reply.json.details).toMatch(/^Unknown scope; the scopes are api, client_api, .*vouchers/);
  });
});
