import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { routeNotFoundRoute, introspectOauthTokenRoute, routes } from '../../../lib/api/routes.js';
import { startHttpServer, type LocalHttpServer } from '../../../infra/local/http-server.js';
import { defaultDataDir, startLocal, type LocalRuntime } from '../../../infra/local/start-local.js';
import { createLogger } from '../../../lib/logger.js';
import { MAX_BODY_BYTES } from '../../../lib/http/request.js';
import type { RouteDef } from '../../../lib/api/route.js';
import type { WorkerDef } from '../../../lib/api/workers.js';
import { contractCheckingWrapper } from '../../support/reply-contract.js';
import { engines } from '../../support/runtime.js';
import { received } from './fixtures/echo-worker.js';

const started: Array<{ stop(): Promise<void> }> = [];
const tempDirs: string[] = [];
const serverLines: string[] = [];
const logger = createLogger('info', (line) => serverLines.push(line));
/** Replies of the table's routes that broke docs/openapi.json (checked after every test). */
const contractViolations: string[] = [];

async function start(options: Partial<Parameters<typeof startLocal>[0]> = {}): Promise<LocalRuntime> {
  // No workers unless a test asks: a default worker polling the suite's shared jobs queue would take other tests' messages.
  const local = await startLocal({
    dataDir: null,
    port: 0,
    downloadPort: 0,
    engines: engines(),
    logger,
    workers: [],
    wrapHandler: contractCheckingWrapper(contractViolations),
    ...options,
  });
  started.push(local);
  return local;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'local-runtime-'));
  tempDirs.push(dir);
  return dir;
}

async function tokenWith(apiUrl: string, appId: string, appToken: string): Promise<Response> {
  return fetch(`${apiUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'X-App-Id': appId, 'X-App-Token': appToken },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api' }),
  });
}

/** A raw HTTP exchange, for requests fetch will not make (declared sizes, unread uploads, garbage). */
function rawRequest(port: number, options: { method: string; path: string; headers: Record<string, string | string[]>; body?: Buffer; chunks?: Buffer[] }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: options.method, path: options.path, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (options.chunks) for (const chunk of options.chunks) req.write(chunk);
    req.end(options.body);
  });
}

/** Starts an upload it never finishes, and resolves with the reply that comes anyway. */
function partialUpload(port: number, headers: Record<string, string>, sent: Buffer) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/oauth/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.write(sent);
    setTimeout(() => reject(new Error('no reply before the upload ended')), 5000).unref();
  });
}

let local: LocalRuntime;
let apiPort: number;
/** What handlers write to stdout (their request lines), kept instead of printed. */
const stdout: string[] = [];

beforeAll(async () => {
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  local = await start();
  apiPort = Number(new URL(local.apiUrl).port);
});

afterEach(() => {
  expect(contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  vi.restoreAllMocks();
  for (const s of started.splice(0).reverse()) await s.stop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('local runtime HTTP server', () => {
  it('issues an OAuth token over real HTTP with the dev key pair it prints', async () => {
    expect(local.apiUrl).toMatch(/^http:\/\/localhost:\d+$/);
    const reply = await tokenWith(local.apiUrl, local.devKey.app_id, local.devKey.app_token);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-request-id')).toMatch(/^v-/);
    expect(await reply.json()).toMatchObject({ access_token: expect.any(String), client_id: local.devKey.app_id, token_type: 'Bearer' });
  });

  it('reaches the introspection handler, and passes the query string on to handlers (which ignore what they do not read)', async () => {
    const token = (await (await tokenWith(local.apiUrl, local.devKey.app_id, local.devKey.app_token)).json()) as { access_token: string };
    const reply = await fetch(`${local.apiUrl}/v1/oauth/introspect`, {
      method: 'POST',
      headers: { 'X-App-Id': local.devKey.app_id, 'X-App-Token': local.devKey.app_token },
      body: new URLSearchParams({ access_token: token.access_token }),
    });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ active: true });
    const withQuery = await fetch(`${local.apiUrl}/v1/oauth/token?unexpected=1`, {
      method: 'POST',
      headers: { 'X-App-Id': local.devKey.app_id, 'X-App-Token': local.devKey.app_token },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    // A parameter the route does not read is ignored (issue 33), as Voucherify does.
    expect(withQuery.status).toBe(200);
  });

  it('refuses a JSON body that is not UTF-8 with 400 invalid_json, rather than storing U+FFFD', async () => {
    const headers = { 'X-App-Id': local.devKey.app_id, 'X-App-Token': local.devKey.app_token, 'Content-Type': 'application/json' };
    const bytes = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const reply = await fetch(`${local.apiUrl}/v1/campaigns`, { method: 'POST', headers, body: bytes });
    expect(reply.status).toBe(400);
    expect(await reply.json()).toMatchObject({ key: 'invalid_json', details: 'The body is not valid UTF-8' });
    const list = (await (await fetch(`${local.apiUrl}/v1/campaigns`, { headers })).json()) as { campaigns: { name: string }[] };
    expect(list.campaigns.map((c) => c.name).filter((n) => n.includes('\uFFFD'))).toEqual([]);
  });

  it('answers 400 invalid_path, not 404, to a path segment that is not valid percent-encoding', async () => {
    const reply = await fetch(`${local.apiUrl}/v1/vouchers/%ZZ`, { headers: { 'X-App-Id': local.devKey.app_id, 'X-App-Token': local.devKey.app_token } });
    expect(reply.status).toBe(400);
    const body = (await reply.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 400, key: 'invalid_path' });
    expect(body.details).toContain('%ZZ');
    expect((await fetch(`${local.apiUrl}/v1/vouchers/%E2%82`)).status).toBe(400);
  });

  it('answers an unknown route with the 404 error object and its request id', async () => {
    const reply = await fetch(`${local.apiUrl}/v1/nothing-here`);
    expect(reply.status).toBe(404);
    const body = (await reply.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 404, key: 'not_found', request_id: expect.stringMatching(/^v-/) });
    expect(reply.headers.get('x-request-id')).toBe(body.request_id);
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const reply = await fetch(`${local.apiUrl}/v1/oauth/token`);
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('POST');
    expect(await reply.json()).toMatchObject({ code: 405, key: 'method_not_allowed', request_id: expect.stringMatching(/^v-/) });
  });

  it('refuses a body over the limit with the 413 error object, whether its size is declared or streamed', async () => {
    const big = Buffer.alloc(MAX_BODY_BYTES + 1, 'a');
    const declared = await fetch(`${local.apiUrl}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: 413, key: 'payload_too_large', request_id: expect.stringMatching(/^v-/) });

    const streamed = await rawRequest(apiPort, {
      method: 'POST',
      path: '/v1/oauth/token',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' },
      chunks: [Buffer.alloc(MAX_BODY_BYTES / 2, 'a'), Buffer.alloc(MAX_BODY_BYTES / 2, 'a')],
      body: Buffer.from('a'),
    });
    expect(streamed.status).toBe(413);
    const body = JSON.parse(streamed.body) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 413, key: 'payload_too_large' });
    expect(streamed.headers['x-request-id']).toBe(body.request_id);
    const line = serverLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.request_id === body.request_id);
    expect(line).toMatchObject({ message: 'request', method: 'POST', path: '/v1/oauth/token', status: 413, ms: expect.any(Number) });
  });

  it('answers 413 as soon as the limit is passed, without waiting for (or buffering) the rest of the upload', async () => {
    const answers = await Promise.all([
      partialUpload(apiPort, { 'Content-Length': String(50 * MAX_BODY_BYTES) }, Buffer.alloc(1024, 'a')),
      partialUpload(apiPort, { 'Transfer-Encoding': 'chunked' }, Buffer.alloc(MAX_BODY_BYTES + 1, 'a')),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      expect(body).toMatchObject({ code: 413, key: 'payload_too_large', request_id: expect.stringMatching(/^v-/) });
      expect(serverLines.some((l) => l.includes(String(body.request_id)))).toBe(true);
    }
  });

  it('reads and throws away the rest of an oversized upload API Gateway would carry, so the client sees the 413 and a clean end, not a reset (issue 41 item 8)', async () => {
    const total = 3 * 1024 * 1024;
    const outcome = await new Promise<{ received: string; error: string | null; sent: number }>((resolve) => {
      let received = '';
      let error: string | null = null;
      let sent = 0;
      const socket = connect(apiPort, '127.0.0.1', () => {
        socket.write(`POST /v1/oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${total}\r\n\r\n`);
        // The upload goes on well after the 413 (sent once the limit is passed), as a client streaming a file does.
        const chunk = Buffer.alloc(256 * 1024, 'a');
        socket.write(chunk);
        sent += chunk.length;
        const timer = setInterval(() => {
          if (sent >= total || socket.destroyed) {
            clearInterval(timer);
            if (!socket.destroyed) socket.end();
            return;
          }
          socket.write(chunk);
          sent += chunk.length;
        }, 40);
      });
      socket.on('data', (c: Buffer) => (received += c.toString('utf8')));
      socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
      socket.on('close', () => resolve({ received, error, sent }));
    });
    expect(outcome.error).toBeNull();
    expect(outcome.sent).toBe(total);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.received).toContain('"key":"payload_too_large"');
  });

  it('accepts a body exactly at the limit (it reaches the handler)', async () => {
    const reply = await fetch(`${local.apiUrl}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: Buffer.alloc(MAX_BODY_BYTES, 'a'),
    });
    expect(reply.status).toBe(401);
  });

  it('logs one line per request with method, path, status, ms and request id, and no token or query string', async () => {
    const secretQuery = `probe=${randomUUID()}`;
    const reply = await fetch(`${local.apiUrl}/v1/oauth/token?${secretQuery}`, {
      method: 'POST',
      headers: { 'X-App-Id': local.devKey.app_id, 'X-App-Token': local.devKey.app_token },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    const requestId = reply.headers.get('x-request-id');

    const lines = [...stdout.join('').split('\n'), ...serverLines].filter((l) => l.startsWith('{'));
    const forRequest = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.request_id === requestId);
    expect(forRequest).toHaveLength(1);
    expect(forRequest[0]).toMatchObject({ message: 'request', method: 'POST', path: '/v1/oauth/token', status: 200, ms: expect.any(Number) });
    const all = lines.join('\n');
    expect(all).toContain(local.devKey.project_id); // the request lines are there, just not the secret
    expect(all).not.toContain(local.devKey.app_token);
    expect(all).not.toContain(secretQuery);
  });

  it('answers a malformed HTTP request with a JSON error object', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(apiPort, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (c) => (data += c.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 400, request_id: expect.stringMatching(/^v-/) });
  });

  it('serves each cluster its own routes from the route table', async () => {
    const downloadRoute: RouteDef = { ...introspectOauthTokenRoute, operationId: 'test-download', path: '/v1/test-download', cluster: 'download' };
    const both = await start({ routes: [...routes, downloadRoute] });
    const onDownload = await fetch(`${both.downloadUrl}/v1/test-download`, { method: 'POST' });
    expect(onDownload.status).toBe(401); // reached the handler, which wants credentials
    expect((await fetch(`${both.apiUrl}/v1/test-download`, { method: 'POST' })).status).toBe(404);
    const apiRouteOnDownload = await fetch(`${both.downloadUrl}/v1/oauth/token`, { method: 'POST' });
    expect(apiRouteOnDownload.status).toBe(404);
    expect(await apiRouteOnDownload.json()).toMatchObject({ key: 'not_found', request_id: expect.stringMatching(/^v-/) });
  });
});

describe('local HTTP server with stand-in handlers', () => {
  let server: LocalHttpServer;
  const lines: string[] = [];
  const echo: RouteDef = { ...routeNotFoundRoute, operationId: 'echo', method: 'PUT', path: '/v1/echo/{code}', handler: 'echo.ts' };
  const broken: RouteDef = { ...routeNotFoundRoute, operationId: 'broken', method: 'GET', path: '/broken', handler: 'broken.ts' };
  beforeAll(async () => {
    server = await startHttpServer({
      routes: [echo, broken],
      fallback: routeNotFoundRoute,
      port: 0,
      host: '127.0.0.1',
      logger: createLogger('info', (l) => lines.push(l)),
      loadHandler: async (route) => {
        if (route === echo || route === routeNotFoundRoute) {
          return async (event, context) => ({ statusCode: 200, body: JSON.stringify({ event, functionName: context.functionName }) });
        }
        if (route === broken) return async () => Promise.reject(new Error('secret detail at /srv/app.ts:1'));
        throw new Error('module failed to load');
      },
    });
  });
  afterAll(() => server.close());

  it('builds the API Gateway v2 event: route key, decoded path parameters, raw query, joined headers, body', async () => {
    const reply = await rawRequest(server.port, {
      method: 'PUT',
      path: '/v1/echo/A%2FB%20c?x=1&x=2',
      headers: { 'Content-Type': 'application/json', 'X-Custom': ['one', 'two'] },
      body: Buffer.from('{"a":1}'),
    });
    const { event, functionName } = JSON.parse(reply.body) as { event: Record<string, unknown> & { headers: Record<string, string> }; functionName: string };
    expect(functionName).toBe('echo');
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'PUT /v1/echo/{code}',
      rawPath: '/v1/echo/A%2FB%20c',
      rawQueryString: 'x=1&x=2',
      pathParameters: { code: 'A/B c' },
      body: '{"a":1}',
      isBase64Encoded: false,
      requestContext: { http: { method: 'PUT', path: '/v1/echo/A%2FB%20c', sourceIp: '127.0.0.1' }, routeKey: 'PUT /v1/echo/{code}' },
    });
    expect(event.headers['content-type']).toBe('application/json');
    expect(event.headers['x-custom']).toBe('one,two');

    const unmatched = await rawRequest(server.port, { method: 'GET', path: '/elsewhere', headers: {} });
    const fallbackEvent = (JSON.parse(unmatched.body) as { event: Record<string, unknown> }).event;
    expect(fallbackEvent).toMatchObject({ routeKey: '$default', rawPath: '/elsewhere' });
    expect(fallbackEvent.pathParameters).toBeUndefined();
  });

  it('turns a handler that throws outside its envelope into an opaque 500 error object, never a stack', async () => {
    const reply = await fetch(`http://127.0.0.1:${server.port}/broken`);
    expect(reply.status).toBe(500);
    const text = await reply.text();
    expect(JSON.parse(text)).toMatchObject({ code: 500, key: 'internal_server_error', request_id: expect.stringMatching(/^v-/) });
    expect(text).not.toContain('secret detail');
    expect(text).not.toContain('at ');
    expect(lines.some((l) => l.includes('secret detail'))).toBe(true); // the detail goes to the log only
  });
});

describe('local runtime workers', () => {
  const echoWorker: WorkerDef = {
    name: 'echo-worker',
    queue: 'promo-engine-jobs',
    handler: 'test/integration/local/fixtures/echo-worker.ts',
    batchSize: 5,
    timeoutSeconds: 5,
    summary: 'test worker',
    needs: { bucket: null, sendsTo: [], env: [] },
  };

  it('feeds each worker its queue from the worker table', async () => {
    const withWorker = await start({ workers: [echoWorker] });
    const e = engines();
    const sqs = new SQSClient({ region: e.region, endpoint: e.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const body = `job-${randomUUID()}`;
    await sqs.send(new SendMessageCommand({ QueueUrl: e.queueUrls['promo-engine-jobs'], MessageBody: body }));
    const deadline = Date.now() + 10_000;
    while (!received().some((ev) => ev.Records.some((r) => r.body === body)) && Date.now() < deadline) await sleep(100);
    await withWorker.stop();
    sqs.destroy();
    const record = received()
      .flatMap((ev) => ev.Records)
      .find((r) => r.body === body);
    expect(record).toMatchObject({ eventSource: 'aws:sqs', eventSourceARN: expect.stringMatching(/:promo-engine-jobs$/) });
  });

  it('refuses to start a worker on a queue the engines did not create, and leaves nothing running', async () => {
    const dir = tempDir();
    await expect(start({ dataDir: dir, workers: [{ ...echoWorker, queue: 'missing-queue' as WorkerDef['queue'] }] })).rejects.toThrow(/did not create/);
    expect(existsSync(join(dir, 'runtime.json'))).toBe(false);
    const after = await start({ dataDir: dir });
    expect(after.apiUrl).toMatch(/^http/);
  });
});

describe('local runtime data folder', () => {
  it('keeps the generated dev key in dev-key.json (0600) and reuses it on the next start', async () => {
    const dir = tempDir();
    const first = await start({ dataDir: dir });
    const file = join(dir, 'dev-key.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      ...first.devKey,
      client_app_id: first.devClientKey.app_id,
      client_app_token: first.devClientKey.app_token,
      management_id: first.devManagementKey.management_id,
      management_token: first.devManagementKey.management_token,
    });
    await first.stop();

    const second = await start({ dataDir: dir });
    expect(second.devKey).toEqual(first.devKey);
    expect(second.devClientKey.app_id).toBe(first.devClientKey.app_id);
    expect(second.devManagementKey).toEqual(first.devManagementKey);
    expect((await tokenWith(second.apiUrl, second.devKey.app_id, second.devKey.app_token)).status).toBe(200);
  });

  it("serves the client-side API with the printed client key from the runtime's own origin, preflight included", async () => {
    const local = await start();
    const origin = new URL(local.apiUrl).origin;
    expect(local.devClientKey.origins).toContain(origin);
    const preflight = await fetch(`${local.apiUrl}/client/v1/promotions/tiers`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-client-application-id,x-client-token' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    const headers = { 'X-Client-Application-Id': local.devClientKey.app_id, 'X-Client-Token': local.devClientKey.app_token };
    const reply = await fetch(`${local.apiUrl}/client/v1/promotions/tiers`, { headers: { ...headers, Origin: origin } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe(origin);
    const elsewhere = await fetch(`${local.apiUrl}/client/v1/promotions/tiers`, { headers: { ...headers, Origin: 'https://elsewhere.example' } });
    expect(elsewhere.status).toBe(403);
    // The client pair never opens the server API.
    expect((await tokenWith(local.apiUrl, local.devClientKey.app_id, local.devClientKey.app_token)).status).toBe(401);
  });

  it('serves the Management API with the printed management key, which lists the dev project and opens nothing else', async () => {
    const local = await start();
    const headers = { 'X-Management-Id': local.devManagementKey.management_id, 'X-Management-Token': local.devManagementKey.management_token };
    const list = await fetch(`${local.apiUrl}/management/v1/projects`, { headers });
    expect(list.status).toBe(200);
    const ids = ((await list.json()) as { data: { id: string }[] }).data.map((p) => p.id);
    expect(ids).toContain(local.devKey.project_id);
    // The management pair is no project credential, and the dev project's pair is no management credential.
    expect((await tokenWith(local.apiUrl, local.devManagementKey.management_id, local.devManagementKey.management_token)).status).toBe(401);
    const asProject = await fetch(`${local.apiUrl}/management/v1/projects`, {
      headers: { 'X-App-Id': local.devKey.app_id, 'X-App-Token': local.devKey.app_token },
    });
    expect(asProject.status).toBe(401);
  });

  it('uses DEV_MANAGEMENT_ID / DEV_MANAGEMENT_TOKEN as the management key pair and keeps them out of the data folder', async () => {
    const dir = tempDir();
    const managementId = `mgmt-dev-${randomUUID()}`;
    const managementToken = randomUUID().replaceAll('-', '');
    const fixed = await start({ dataDir: dir, devManagementKey: { managementId, managementToken } });
    expect(fixed.devManagementKey).toEqual({ management_id: managementId, management_token: managementToken });
    const list = await fetch(`${fixed.apiUrl}/management/v1/projects`, { headers: { 'X-Management-Id': managementId, 'X-Management-Token': managementToken } });
    expect(list.status).toBe(200);
    expect(readFileSync(join(dir, 'dev-key.json'), 'utf8')).not.toContain(managementToken);
  });

  it('uses DEV_APP_ID / DEV_APP_TOKEN as the dev key pair and keeps them out of the data folder', async () => {
    const dir = tempDir();
    const appId = `dev-${randomUUID()}`;
    const appToken = randomUUID().replaceAll('-', '');
    const fixed = await start({ dataDir: dir, devKey: { appId, appToken } });
    expect(fixed.devKey).toMatchObject({ app_id: appId, app_token: appToken, project_id: expect.stringMatching(/^proj_/) });
    expect((await tokenWith(fixed.apiUrl, appId, appToken)).status).toBe(200);
    expect(existsSync(join(dir, 'dev-key.json'))).toBe(false);
    await fixed.stop();

    const again = await start({ dataDir: null, devKey: { appId, appToken } });
    expect(again.devKey.project_id).toBe(fixed.devKey.project_id);
  });

  it('writes runtime.json while running, removes it on stop, and refuses a second runtime on the same folder', async () => {
    const dir = tempDir();
    const running = await start({ dataDir: dir });
    const file = join(dir, 'runtime.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      pid: process.pid,
      dynamoEndpoint: engines().dynamoEndpoint,
      tableName: engines().tableName,
      region: engines().region,
      apiUrl: running.apiUrl,
      downloadUrl: running.downloadUrl,
    });
    await expect(start({ dataDir: dir })).rejects.toThrow(/Another local runtime .* is using/);
    expect((await tokenWith(running.apiUrl, running.devKey.app_id, running.devKey.app_token)).status).toBe(200);
    await running.stop();
    expect(existsSync(file)).toBe(false);
  });

  it('writes no runtime.json and no dev key in memory', async () => {
    const inMemory = await start({ dataDir: null });
    const file = join(defaultDataDir, 'runtime.json');
    if (existsSync(file)) expect((JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid).not.toBe(process.pid);
    expect(inMemory.devKey.app_id).not.toBe(local.devKey.app_id);
  });
});
