import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHandler } from '../../../functions/openapi/get-openapi-document.js';
import { getOpenapiDocumentRoute } from '../../../lib/api/routes.js';
import { withListeningServers } from '../../../infra/local/openapi-servers.js';
import { startLocal, type LocalRuntime } from '../../../infra/local/start-local.js';
import { silentLogger } from '../../../lib/logger.js';
import { callRoute } from '../../support/api.js';
import { engines, testRuntime } from '../../support/runtime.js';

const committed = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'openapi.json'), 'utf8')) as Parameters<
  typeof withListeningServers
>[0];

describe('GET /v1/openapi.json through its handler', () => {
  it('serves the committed document without credentials, as JSON that no cache keeps', async () => {
    const reply = await callRoute(makeHandler({ runtime: testRuntime() }), getOpenapiDocumentRoute, { path: '/v1/openapi.json' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(committed);
    expect(reply.headers['Content-Type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['Cache-Control']).toBe('no-store');
    expect(reply.headers['X-Request-Id']).toMatch(/\S/);
  });

  it('lets browser tools on any origin read it', async () => {
    const reply = await callRoute(makeHandler({ runtime: testRuntime() }), getOpenapiDocumentRoute, {
      path: '/v1/openapi.json',
      headers: { origin: 'https://editor.swagger.io' },
    });
    expect(reply.headers['Access-Control-Allow-Origin']).toBe('*');
  });

  it('ignores query parameters it does not read, and refuses a page it does not serve with the error object', async () => {
    const ignored = await callRoute(makeHandler({ runtime: testRuntime() }), getOpenapiDocumentRoute, { path: '/v1/openapi.json', query: 'format=yaml' });
    expect(ignored.status).toBe(200);
    const reply = await callRoute(makeHandler({ runtime: testRuntime() }), getOpenapiDocumentRoute, { path: '/v1/openapi.json', query: 'page=2' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 400, key: 'invalid_query_params', request_id: reply.headers['X-Request-Id'] });
  });
});

describe('GET /v1/openapi.json on the local server', () => {
  let local: LocalRuntime;

  beforeAll(async () => {
    local = await startLocal({ dataDir: null, port: 0, downloadPort: 0, engines: engines(), logger: silentLogger, workers: [] });
  });

  afterAll(async () => {
    await local?.stop();
  });

  it('serves the committed document over HTTP with no key pair or token, naming this run as the local server', async () => {
    const reply = await fetch(`${local.apiUrl}/v1/openapi.json`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const served = (await reply.json()) as { servers: Array<{ url: string }>; paths: Record<string, Record<string, { servers?: Array<{ url: string }> }>> };
    // The committed document names ports 3000/3001; this run listens elsewhere (port 0), and says so.
    expect(served).toEqual(withListeningServers(committed, { api: local.apiUrl, download: local.downloadUrl }));
    expect(served.servers.map((s) => s.url)).toContain(local.apiUrl);
    expect(served.servers.map((s) => s.url)).not.toContain('http://localhost:3000');
    const exportServers = served.paths['/v1/exports/{export_Id}']?.get?.servers?.map((s) => s.url);
    expect(exportServers).toContain(local.downloadUrl);
  });

  it('answers another method on the path with 405 and Allow: GET', async () => {
    const reply = await fetch(`${local.apiUrl}/v1/openapi.json`, { method: 'DELETE' });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET');
  });

  it('is not served by the download cluster', async () => {
    const reply = await fetch(`${local.downloadUrl}/v1/openapi.json`);
    expect(reply.status).toBe(404);
  });
});
