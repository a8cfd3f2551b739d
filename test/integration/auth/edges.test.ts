import { describe, expect, it } from 'vitest';
import { generateOauthTokenRoute, introspectOauthTokenRoute, listCampaignsRoute } from '../../../lib/api/routes.js';
import type { Runtime } from '../../../lib/runtime.js';
import { contractViolation, routeClient, type RawReply } from '../../support/hostile/route-harness.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/**
 * Authentication edges not covered elsewhere. Already tested (not repeated here):
 * expired token while its item exists, blocked / deleted key within 60 s, scope → 403 and a bearer
 * token on introspection (test/integration/oauth/token-lifecycle.test.ts), IP allow-lists and key
 * permissions (test/integration/auth/ip-allow-list.test.ts), scope parsing (test/unit/auth/scopes.test.ts).
 */

const LENGTHS = [0, 1, 16, 36, 255, 256, 1_024, 2_048, 2_049, 4_096, 8_192, 10_240];

async function setup() {
  const runtime: Runtime = testRuntime();
  const pair = await newProject(runtime);
  const api = routeClient(runtime);
  const tokenReply = await api(generateOauthTokenRoute, { form: { grant_type: 'client_credentials', scope: 'api' }, headers: keyPairHeaders(pair) });
  const accessToken = (tokenReply.body as { access_token: string }).access_token;
  const list = (headers: Record<string, string>) => api(listCampaignsRoute, { headers });
  /** Headers exactly as given: the API Gateway event builder would lower-case their names. */
  const listRaw = (headers: Record<string, string>) =>
    api(listCampaignsRoute, {
      mutate: (event) => {
        event.headers = headers;
      },
    });
  return { runtime, pair, api, accessToken, list, listRaw };
}

const expectUnauthorized = (reply: RawReply): void => {
  expect(contractViolation(reply)).toBeUndefined();
  expect(reply.status).toBe(401);
  expect(reply.body).toMatchObject({ code: 401, key: 'unauthorized' });
};

describe('credential headers of any length', () => {
  it('answers 401 with the error object to X-App-Id, X-App-Token and Authorization values from 0 to 10 KB, never a 5xx', async () => {
    const { pair, list } = await setup();
    for (const n of LENGTHS) {
      const junk = 'a'.repeat(n);
      expectUnauthorized(await list({ 'x-app-id': junk, 'x-app-token': pair.app_token }));
      expectUnauthorized(await list({ 'x-app-id': pair.app_id, 'x-app-token': junk }));
      expectUnauthorized(await list({ 'x-app-id': junk, 'x-app-token': junk }));
      expectUnauthorized(await list({ authorization: `Bearer ${junk}` }));
      expectUnauthorized(await list({ authorization: junk }));
    }
  });

  it('answers 401 to credentials holding separators, escapes and control characters', async () => {
    const { pair, list } = await setup();
    for (const v of ['#', `${pair.app_id}#`, 'APPKEY#x', '%', '%00', '../..', '\u0000', '\uFFFD', ' ', `${pair.app_id} `.repeat(2)]) {
      expectUnauthorized(await list({ 'x-app-id': v, 'x-app-token': pair.app_token }));
      expectUnauthorized(await list({ authorization: `Bearer ${v}` }));
    }
  });
});

describe('header names and the bearer scheme are case-insensitive', () => {
  it('accepts the key pair under any capitalisation of X-App-Id and X-App-Token', async () => {
    const { pair, listRaw } = await setup();
    for (const [id, token] of [
      ['X-App-Id', 'X-App-Token'],
      ['X-APP-ID', 'X-APP-TOKEN'],
      ['x-app-id', 'x-app-token'],
      ['x-App-iD', 'X-aPP-tOKEN'],
    ] as const) {
      expect((await listRaw({ [id]: pair.app_id, [token]: pair.app_token })).status).toBe(200);
    }
  });

  it('accepts Authorization under any capitalisation, and the scheme as Bearer, bearer or BEARER', async () => {
    const { accessToken, list, listRaw } = await setup();
    for (const [name, scheme] of [
      ['Authorization', 'Bearer'],
      ['AUTHORIZATION', 'bearer'],
      ['authorization', 'BEARER'],
      ['aUtHoRiZaTiOn', 'bEaReR'],
    ] as const) {
      expect((await listRaw({ [name]: `${scheme} ${accessToken}` })).status).toBe(200);
    }
    expect((await list({ authorization: `Bearer   ${accessToken}  ` })).status).toBe(200);
  });

  it('refuses other schemes and a bare token with 401', async () => {
    const { accessToken, list } = await setup();
    for (const value of [`Basic ${accessToken}`, `Token ${accessToken}`, accessToken, `Bearer`, `Bearer ${accessToken} extra`, `Bearer${accessToken}`]) {
      expectUnauthorized(await list({ authorization: value }));
    }
  });
});

describe('both schemes at once', () => {
  it('uses the key pair when X-App-Id and X-App-Token are both present, whatever the bearer token says', async () => {
    const { pair, accessToken, list } = await setup();
    expect((await list({ ...keyPairHeaders(pair), authorization: 'Bearer not-a-token' })).status).toBe(200);
    expectUnauthorized(await list({ 'x-app-id': pair.app_id, 'x-app-token': 'wrong', authorization: `Bearer ${accessToken}` }));
  });

  it('uses the bearer token when the key pair is incomplete', async () => {
    const { pair, accessToken, list } = await setup();
    expect((await list({ 'x-app-id': pair.app_id, authorization: `Bearer ${accessToken}` })).status).toBe(200);
    expect((await list({ 'x-app-token': pair.app_token, authorization: `Bearer ${accessToken}` })).status).toBe(200);
    expect((await list({ 'x-app-id': '', 'x-app-token': '', authorization: `Bearer ${accessToken}` })).status).toBe(200);
  });
});

describe('introspection', () => {
  it('answers 401 without any credentials, and with only half a key pair', async () => {
    const { pair, accessToken, api } = await setup();
    expectUnauthorized(await api(introspectOauthTokenRoute, { form: { access_token: accessToken } }));
    expectUnauthorized(await api(introspectOauthTokenRoute, { form: { access_token: accessToken }, headers: { 'x-app-id': pair.app_id } }));
    expectUnauthorized(await api(introspectOauthTokenRoute, { form: { access_token: accessToken }, headers: { 'x-app-token': pair.app_token } }));
  });
});
