import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createAppKey, setKeyStatus } from '../../../lib/app-keys/app-key.service.js';
import type { IssuedKeyPair } from '../../../lib/app-keys/app-key.service.js';
import { hashSecret } from '../../../lib/auth/secrets.js';
import { ManualClock, toEpochSeconds } from '../../../lib/clock.js';
import { oauthLedger } from '../../../lib/db/entities.js';
import { getLedger, getToken } from '../../../lib/oauth/oauth.repo.js';
import { MAX_LIVE_TOKENS_PER_PROJECT, TOKEN_LIFETIME_SECONDS } from '../../../lib/oauth/oauth-token.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const START = Date.UTC(2026, 0, 1);
const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

function setup(clock = new ManualClock(START), runtime: Runtime = testRuntime({ clock })) {
  return { clock, runtime };
}

/** The OAuth and campaign operations of one runtime, with one project's key pair. */
function client(runtime: Runtime, pair: IssuedKeyPair) {
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  return {
    token: async (scope = 'api'): Promise<string> => {
      const reply = await api.call('generate-oauth-token', { form: { grant_type: 'client_credentials', scope } });
      expect(reply.status).toBe(200);
      return reply.json.access_token as string;
    },
    issue: () => api.call('generate-oauth-token', { form: { grant_type: 'client_credentials', scope: 'api' } }),
    revoke: (accessToken: string, headers = keyPairHeaders(pair)) => api.call('revoke-oauth-token', { form: { access_token: accessToken }, headers }),
    introspect: (accessToken: string) => api.call('introspect-oauth-token', { form: { access_token: accessToken } }),
    /** A bearer request to an ordinary route: authenticated through the token item and the cached key. */
    useToken: (accessToken: string) => api.call('list-campaigns', { headers: bearer(accessToken) }),
  };
}

describe('POST /v1/oauth/token/revoke', () => {
  it('answers 204 with no body, after which the token gets 401 at once, also while its key sits warm in the key cache', async () => {
    const { runtime } = setup();
    const pair = await newProject(runtime);
    const api = client(runtime, pair);
    const accessToken = await api.token();
    expect((await api.useToken(accessToken)).status).toBe(200);
    expect(runtime.appKeyCache.get(pair.app_id)).toBeTruthy();

    const revoked = await api.revoke(accessToken);

    expect(revoked.status).toBe(204);
    expect(revoked.body).toBeFalsy();
    // The cached key would still admit the token: only the token item decides, and it is gone.
    expect(runtime.appKeyCache.get(pair.app_id)).toBeTruthy();
    const refused = await api.useToken(accessToken);
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ code: 401, key: 'unauthorized', details: 'The access token is unknown, expired or revoked' });
    expect((await api.introspect(accessToken)).body).toEqual({ active: false });
    expect(await getToken(runtime, hashSecret(accessToken))).toBeNull();
  });

  it('reads the token item strongly consistently on bearer requests, so no replica can still show a revoked token', async () => {
    const { runtime } = setup();
    const pair = await newProject(runtime);
    const accessToken = await client(runtime, pair).token();
    const reads: Array<{ pk: unknown; consistent: unknown }> = [];
    const recording = new Proxy(runtime.ddb, {
      get(target, prop, receiver) {
        if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
        return (command: { constructor: { name: string }; input: { Key?: { PK?: unknown }; ConsistentRead?: unknown } }) => {
          if (command.constructor.name === 'GetCommand') reads.push({ pk: command.input.Key?.PK, consistent: command.input.ConsistentRead });
          return (target.send as (c: unknown) => Promise<unknown>)(command);
        };
      },
    });
    const api = client({ ...runtime, ddb: recording }, pair);
    expect((await api.useToken(accessToken)).status).toBe(200);
    expect((await api.useToken(accessToken)).status).toBe(200);
    const tokenReads = reads.filter((r) => String(r.pk).startsWith('OAUTH#'));
    expect(tokenReads).toHaveLength(2);
    for (const read of tokenReads) expect(read.consistent).toBe(true);
  });

  it('frees the slot under the 1,000-token cap at once: at the cap, revoking one lets exactly one new token in', async () => {
    const { clock, runtime } = setup();
    const pair = await newProject(runtime);
    const api = client(runtime, pair);
    const accessToken = await api.token();
    // The cap is counted on the ledger alone: fill it with 999 more live expiries (issuing them one by one is the cap test's job).
    const now = toEpochSeconds(clock.now());
    const ledger = await getLedger(runtime, pair.project_id);
    const expiries = [...ledger.expiries, ...Array.from({ length: MAX_LIVE_TOKENS_PER_PROJECT - 1 }, () => now + TOKEN_LIFETIME_SECONDS)];
    await runtime.ddb.send(
      new PutCommand({ TableName: runtime.tableName, Item: oauthLedger.toItem({ expiries, revision: (ledger.revision ?? 0) + 1 }, pair.project_id) }),
    );
    const full = await api.issue();
    expect(full.status).toBe(429);
    expect(full.json).toMatchObject({ key: 'oauth_token_limit_exceeded' });

    expect((await api.revoke(accessToken)).status).toBe(204);

    expect((await getLedger(runtime, pair.project_id)).expiries).toHaveLength(MAX_LIVE_TOKENS_PER_PROJECT - 1);
    const fresh = await api.issue();
    expect(fresh.status).toBe(200);
    expect((await api.useToken(fresh.json.access_token as string)).status).toBe(200);
    expect((await api.issue()).status).toBe(429);
  });

  it("answers 404 not_found, without echoing the token, for an unknown, expired, already revoked or other project's token, changing nothing", async () => {
    const { clock, runtime } = setup();
    const pair = await newProject(runtime);
    const other = await newProject(runtime);
    const api = client(runtime, pair);
    const revokedOnce = await api.token();
    expect((await api.revoke(revokedOnce)).status).toBe(204);
    const expiring = await api.token();
    const theirLedger = await getLedger(runtime, other.project_id);
    clock.advance(TOKEN_LIFETIME_SECONDS * 1000 - 60_000);
    const theirsLater = await client(runtime, other).token();
    clock.advance(60_000);

    for (const [label, token] of [
      ['unknown', 'no-such-token'],
      ['already revoked', revokedOnce],
      ['expired', expiring],
      ["another project's", theirsLater],
    ] as const) {
      const reply = await api.revoke(token);
      expect(reply.status, label).toBe(404);
      expect(reply.json, label).toMatchObject({ code: 404, key: 'not_found', resource_type: 'oauth_token' });
      expect(reply.json.resource_id, label).toBeUndefined();
      expect(JSON.stringify(reply.json), label).not.toContain(token);
    }
    expect((await client(runtime, other).useToken(theirsLater)).status).toBe(200);
    expect((await getLedger(runtime, other.project_id)).expiries).toHaveLength(theirLedger.expiries.length + 1);
  });

  it('refuses a body without access_token (400) and a bearer token in place of the key pair (401)', async () => {
    const { runtime } = setup();
    const pair = await newProject(runtime);
    const api = apiClient({ runtime }, keyPairHeaders(pair));
    const accessToken = await client(runtime, pair).token();
    const missing = await api.call('revoke-oauth-token', { form: { token: accessToken } });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ code: 400, key: 'missing_parameters', message: 'Missing parameters: access_token' });
    const viaBearer = await api.call('revoke-oauth-token', { form: { access_token: accessToken }, headers: bearer(accessToken) });
    expect(viaBearer.status).toBe(401);
    expect((await client(runtime, pair).useToken(accessToken)).status).toBe(200);
  });

  it('revokes the token of a blocked key, so unblocking the key does not bring it back', async () => {
    const { clock, runtime } = setup();
    const pair = await newProject(runtime);
    const api = client(runtime, pair);
    const accessToken = await api.token();
    // Another key of the same project revokes it while the token's key is blocked.
    const otherKey = await createAppKey(runtime, pair.project_id);
    await setKeyStatus(runtime, pair.app_id, 'BLOCKED');
    clock.advance(60_000);
    expect((await client(runtime, otherKey).revoke(accessToken)).status).toBe(204);
    await setKeyStatus(runtime, pair.app_id, 'ACTIVE');
    clock.advance(60_000);
    expect((await api.useToken(accessToken)).status).toBe(401);
  });

  it('revokes one token once under 20 parallel revokes: one 204, nineteen 404, one slot freed', async () => {
    const { runtime } = setup();
    const pair = await newProject(runtime);
    const api = client(runtime, pair);
    const accessToken = await api.token();
    const kept = await api.token();

    const replies = await Promise.all(Array.from({ length: 20 }, () => api.revoke(accessToken)));

    expect(replies.filter((r) => r.status === 204)).toHaveLength(1);
    const refused = replies.filter((r) => r.status !== 204);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.json).toMatchObject({ code: 404, key: 'not_found' });
    expect((await getLedger(runtime, pair.project_id)).expiries).toHaveLength(1);
    expect((await api.useToken(accessToken)).status).toBe(401);
    expect((await api.useToken(kept)).status).toBe(200);
  });

  it('keeps the ledger exact when 10 revokes and 10 new tokens race in one project', async () => {
    const { runtime } = setup();
    const pair = await newProject(runtime);
    const api = client(runtime, pair);
    const old: string[] = [];
    for (let i = 0; i < 10; i += 1) old.push(await api.token());

    const [revoked, issued] = await Promise.all([Promise.all(old.map((t) => api.revoke(t))), Promise.all(Array.from({ length: 10 }, () => api.issue()))]);

    expect(revoked.map((r) => r.status)).toEqual(Array(10).fill(204));
    expect(issued.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await getLedger(runtime, pair.project_id)).expiries).toHaveLength(10);
    for (const t of old) expect(await getToken(runtime, hashSecret(t))).toBeNull();
    for (const r of issued) expect(await getToken(runtime, hashSecret(r.json.access_token as string))).not.toBeNull();
  });
});
