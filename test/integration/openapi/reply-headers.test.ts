import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { generateOauthTokenRoute, routes } from '../../../lib/api/routes.js';
import type { HandlerFactory } from '../../../lib/http/endpoint.js';
import { startLocal, type LocalRuntime } from '../../../infra/local/start-local.js';
import { silentLogger } from '../../../lib/logger.js';
import { callRoute, campaignApi, newCampaign } from '../../support/api.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/*
 * Headers clients rely on (issue 6, item 5): a JSON content type on every reply with a body, no
 * caching, the request id of an error in its header, and no CORS on the server-side API.
 */

const JSON_TYPE = 'application/json; charset=utf-8';
const runtime = testRuntime();
const root = join(import.meta.dirname, '..', '..', '..');

describe('reply headers', () => {
  it('sends Content-Type and Cache-Control: no-store with a token, and the same request id in header and body of errors', async () => {
    const pair = await newProject(runtime);
    const handler = makeTokenHandler({ runtime });
    const token = await callRoute(handler, generateOauthTokenRoute, {
      path: '/v1/oauth/token',
      headers: keyPairHeaders(pair),
      form: { grant_type: 'client_credentials' },
    });
    expect(token.status).toBe(200);
    expect(token.headers['Content-Type']).toBe(JSON_TYPE);
    expect(token.headers['Cache-Control']).toBe('no-store');

    const refused = await callRoute(handler, generateOauthTokenRoute, { path: '/v1/oauth/token', form: { grant_type: 'client_credentials' } });
    expect(refused.status).toBe(401);
    expect(refused.headers['Content-Type']).toBe(JSON_TYPE);
    expect(refused.headers['Cache-Control']).toBe('no-store');
    expect(refused.json.request_id).toBe(refused.headers['X-Request-Id']);
  });

  it('writes the request id of a not-found error in both the X-Request-Id header and request_id', async () => {
    const api = campaignApi(runtime, await newProject(runtime));
    const reply = await api.getVoucher('NO-SUCH-CODE');
    expect(reply.status).toBe(404);
    expect(reply.headers['Content-Type']).toBe(JSON_TYPE);
    expect(reply.json).toMatchObject({ key: 'not_found', request_id: reply.headers['X-Request-Id'] });
  });

  it('sends neither a body nor a Content-Type with 204', async () => {
    const api = campaignApi(runtime, await newProject(runtime));
    const campaign = await newCampaign(api);
    const voucher = await api.addVoucher(String(campaign.id));
    const reply = await api.deleteVoucher(String(voucher.json.code));
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    expect(Object.keys(reply.headers).map((h) => h.toLowerCase())).not.toContain('content-type');
    expect(reply.headers['Cache-Control']).toBe('no-store');
  });

  it('grants no cross-origin access to server-side replies, even when the request names an origin', async () => {
    const pair = await newProject(runtime);
    const api = campaignApi(runtime, pair);
    const reply = await api.listCampaigns('', { ...keyPairHeaders(pair), origin: 'https://shop.example.com' });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.headers).filter((h) => h.toLowerCase().startsWith('access-control-'))).toEqual([]);
  });
});

describe('error replies of every route', () => {
  it('carry Content-Type, Cache-Control and an X-Request-Id equal to the body request_id', async () => {
    for (const route of routes) {
      const mod = (await import(pathToFileURL(join(root, route.handler)).href)) as { makeHandler: HandlerFactory };
      const path = route.path.replace(/\{[^}]+\}/g, 'unknown-id');
      // No credentials: 401 before anything else; the public routes refuse a page they do not serve (or a missing download token).
      const reply = await callRoute(mod.makeHandler({ runtime }), route, { path, query: route.auth === 'none' ? 'page=2' : '' });
      expect([400, 401], route.operationId).toContain(reply.status);
      expect(reply.headers['Content-Type'], route.operationId).toBe(JSON_TYPE);
      expect(reply.headers['Cache-Control'], route.operationId).toBe('no-store');
      expect(reply.json.request_id, route.operationId).toBe(reply.headers['X-Request-Id']);
      expect(reply.json.code, route.operationId).toBe(reply.status);
    }
  });
});

describe('CORS on the local server', () => {
  let local: LocalRuntime;

  beforeAll(async () => {
    local = await startLocal({ dataDir: null, port: 0, downloadPort: 0, engines: engines(), logger: silentLogger, workers: [] });
  });

  afterAll(async () => {
    await local?.stop();
  });

  it('answers a browser preflight for a server-side endpoint without any Access-Control-Allow header', async () => {
    const reply = await fetch(`${local.apiUrl}/v1/campaigns`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-app-id,x-app-token' },
    });
    expect(reply.status).toBe(405);
    expect([...reply.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(reply.headers.get('content-type')).toBe(JSON_TYPE);
  });
});
