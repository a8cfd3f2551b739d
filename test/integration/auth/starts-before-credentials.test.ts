import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { type RouteDef, route } from '../../../lib/api/route.js';
import { setKeyPermissions, setKeyStatus } from '../../../lib/app-keys/app-key.service.js';
import { credentialKey } from '../../../lib/auth/credential-hints.js';
import { NotFoundError } from '../../../lib/errors.js';
import { endpoint } from '../../../lib/http/endpoint.js';
import { ok } from '../../../lib/http/reply.js';
import type { Runtime } from '../../../lib/runtime.js';
import * as z from '../../../lib/zod.js';
import { call } from '../../support/invoke.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/*
 * A route that `startsBeforeCredentials` (lib/http/endpoint.ts) starts its work, for the principal
 * the same credentials were when this container last admitted them, while they are read again;
 * the reply comes from that work only when the fresh check admits the same principal.
 */

const earlyRoute: RouteDef = {
  ...route({
    operationId: 'test-early',
    method: 'POST',
    path: '/v1/early',
    folder: 'test',
    access: 'read',
    startsBeforeCredentials: true,
    scopes: ['vouchers'],
    summary: 'test early start',
    tag: 'Test',
    success: [],
  }),
  handler: 'test/integration/auth/starts-before-credentials.test.ts',
};

/** What happened, in order: each DynamoDB read sent and answered (the credentials' reads as `key`), each start of the work. */
function setUp() {
  const runtime: Runtime = testRuntime();
  const events: string[] = [];
  const send = runtime.ddb.send.bind(runtime.ddb);
  runtime.ddb.send = (async (command: { input: { Key?: { PK?: string } } }) => {
    const what = String(command.input.Key?.PK ?? '').endsWith('#PROBE') ? 'work' : 'key';
    events.push(`${what} sent`);
    const out = await send(command as never);
    events.push(`${what} answered`);
    return out;
  }) as typeof runtime.ddb.send;
  const handler = endpoint(earlyRoute, { body: z.strictObject({ missing: z.optional(z.boolean()) }) }, async ({ principal, body }) => {
    events.push(`work for ${principal.projectId}`);
    await runtime.ddb.send(new GetCommand({ TableName: runtime.tableName, Key: { PK: `P#${principal.projectId}#PROBE`, SK: 'PROBE' } }));
    if (body.missing) throw new NotFoundError('probe', 'nothing');
    return ok({ project_id: principal.projectId });
  })({ runtime });
  const post = (headers: Record<string, string>, json: unknown = {}) => call(handler, { method: 'POST', path: '/v1/early', headers, json, contract: false });
  return { runtime, events, post };
}

describe('work started before the credentials are read again', () => {
  it('waits for the credentials the first time, and starts beside their read once they were admitted', async () => {
    const { runtime, events, post } = setUp();
    const pair = await newProject(runtime);
    events.length = 0;
    const cold = await post(keyPairHeaders(pair));
    expect(cold.status).toBe(200);
    expect(cold.json).toEqual({ project_id: pair.project_id });
    expect(events).toEqual(['key sent', 'key answered', `work for ${pair.project_id}`, 'work sent', 'work answered']);

    events.length = 0;
    const warm = await post(keyPairHeaders(pair));
    expect(warm.status).toBe(200);
    expect(warm.json).toEqual({ project_id: pair.project_id });
    // The work's read is on the wire before the key's read is answered, and the work runs once.
    expect(events.indexOf('work sent')).toBeLessThan(events.indexOf('key answered'));
    expect(events.filter((e) => e.startsWith('work for'))).toEqual([`work for ${pair.project_id}`]);
  });

  it('answers 401 to credentials admitted before and blocked since, though their work ran', async () => {
    const { runtime, events, post } = setUp();
    const pair = await newProject(runtime);
    expect((await post(keyPairHeaders(pair))).status).toBe(200);
    await setKeyStatus(runtime, pair.app_id, 'BLOCKED');
    events.length = 0;
    const refused = await post(keyPairHeaders(pair));
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ code: 401, key: 'unauthorized' });
    expect(JSON.stringify(refused.json)).not.toContain(pair.project_id);
    expect(events).toContain(`work for ${pair.project_id}`);
  });

  it('starts nothing for a wrong token beside a known app id', async () => {
    const { runtime, events, post } = setUp();
    const pair = await newProject(runtime);
    expect((await post(keyPairHeaders(pair))).status).toBe(200);
    events.length = 0;
    const refused = await post({ ...keyPairHeaders(pair), 'x-app-token': `${pair.app_token}x` });
    expect(refused.status).toBe(401);
    expect(events).toEqual(['key sent', 'key answered']);
  });

  it('answers 401, not the work’s 404, when the credentials no longer pass; the 404 once they pass', async () => {
    const { runtime, post } = setUp();
    const pair = await newProject(runtime);
    expect((await post(keyPairHeaders(pair))).status).toBe(200);
    const found = await post(keyPairHeaders(pair), { missing: true });
    expect(found.status).toBe(404);
    expect(found.json).toMatchObject({ code: 404, key: 'not_found' });
    await setKeyStatus(runtime, pair.app_id, 'BLOCKED');
    expect((await post(keyPairHeaders(pair), { missing: true })).status).toBe(401);
  });

  it('does the work again for the principal the credentials are now when the remembered one differs', async () => {
    const { runtime, events, post } = setUp();
    const pair = await newProject(runtime);
    const other = await newProject(runtime, 'another project');
    // A remembered principal of another project: the reply must never come from its work.
    runtime.credentialHints.learn(credentialKey({ kind: 'key_pair', appId: pair.app_id, appToken: pair.app_token }), {
      projectId: other.project_id,
      appId: pair.app_id,
      via: 'key_pair',
      keyPermissions: null,
      tokenScopes: null,
    });
    events.length = 0;
    const reply = await post(keyPairHeaders(pair));
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ project_id: pair.project_id });
    expect(events.filter((e) => e.startsWith('work for'))).toEqual([`work for ${other.project_id}`, `work for ${pair.project_id}`]);
  });

  it("follows a change of the key's permissions: 403 once they no longer cover the route, the work redone when they changed but cover it", async () => {
    const { runtime, events, post } = setUp();
    const pair = await newProject(runtime);
    expect((await post(keyPairHeaders(pair))).status).toBe(200);
    await setKeyPermissions(runtime, pair.app_id, ['vouchers', 'customers']);
    events.length = 0;
    expect((await post(keyPairHeaders(pair))).status).toBe(200);
    expect(events.filter((e) => e.startsWith('work for'))).toHaveLength(2);

    await setKeyPermissions(runtime, pair.app_id, ['customers']);
    const refused = await post(keyPairHeaders(pair));
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 403, key: 'missing_required_permission' });
  });

  it('starts nothing for a remembered principal whose grants do not cover the route (learnt on another route)', async () => {
    const { runtime, events, post } = setUp();
    const pair = await newProject(runtime);
    runtime.credentialHints.learn(credentialKey({ kind: 'key_pair', appId: pair.app_id, appToken: pair.app_token }), {
      projectId: pair.project_id,
      appId: pair.app_id,
      via: 'key_pair',
      keyPermissions: ['customers'],
      tokenScopes: null,
    });
    events.length = 0;
    expect((await post(keyPairHeaders(pair))).status).toBe(200);
    expect(events).toEqual(['key sent', 'key answered', `work for ${pair.project_id}`, 'work sent', 'work answered']);
  });

  it('starts early for a bearer token admitted before', async () => {
    const { runtime, events, post } = setUp();
    const pair = await newProject(runtime);
    const issued = await call(makeTokenHandler({ runtime }), {
      path: '/v1/oauth/token',
      headers: keyPairHeaders(pair),
      form: { grant_type: 'client_credentials' },
    });
    const bearer = { authorization: `Bearer ${issued.json.access_token as string}` };
    expect((await post(bearer)).status).toBe(200);
    events.length = 0;
    const warm = await post(bearer);
    expect(warm.status).toBe(200);
    expect(warm.json).toEqual({ project_id: pair.project_id });
    expect(events.filter((e) => e.startsWith('work for'))).toEqual([`work for ${pair.project_id}`]);
    expect(events.indexOf('work sent')).toBeLessThan(events.indexOf('key answered'));
  });
});

describe('which routes may start before their credentials', () => {
  const spec = { operationId: 'x', path: '/v1/x', folder: 'test', summary: 'x', tag: 'Test', success: [], startsBeforeCredentials: true } as const;
  it('refuses a writing route, one with idempotency, one of the download cluster, one without credentials or with a signed link', () => {
    expect(() => route({ ...spec, method: 'POST' })).toThrow(/only a read/);
    expect(() => route({ ...spec, method: 'POST', access: 'read', idempotency: 'generic' })).toThrow(/only a read/);
    expect(() => route({ ...spec, method: 'GET', cluster: 'download' })).toThrow(/only a read/);
    expect(() => route({ ...spec, method: 'GET', auth: 'none' })).toThrow(/only a read/);
    expect(() => route({ ...spec, method: 'GET', auth: { keyPair: true, bearer: false, signedLink: 'token' } })).toThrow(/only a read/);
    expect(route({ ...spec, method: 'GET' }).startsBeforeCredentials).toBe(true);
  });
});
