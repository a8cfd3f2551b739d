import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoCommand, freePort } from '../../../infra/local/engines.js';
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, startHttpServer } from '../../../infra/local/http-server.js';
import { repoRoot, startLocal, type LocalRuntime } from '../../../infra/local/start-local.js';
import { routeNotFoundRoute } from '../../../lib/api/routes.js';
import { createLogger, silentLogger } from '../../../lib/logger.js';
import { canListSockets, externalAddress, isLoopback, listeningAddresses, tryConnect } from '../../support/listening-sockets.js';
import { engines } from '../../support/runtime.js';

// Issue 20, item 4: who can reach the local runtime, and how long it waits for a request.

const tempDirs: string[] = [];
const children: ChildProcess[] = [];
const stoppers: Array<() => Promise<void>> = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'local-exposure-'));
  tempDirs.push(dir);
  return dir;
}

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  for (const stop of stoppers.splice(0).reverse()) await stop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const portOf = (url: string): number => Number(new URL(url).port);

async function startRuntime(lines: string[], requestTimeoutMs?: number): Promise<LocalRuntime> {
  const local = await startLocal({
    dataDir: null,
    port: 0,
    downloadPort: 0,
    engines: engines(),
    logger: createLogger('info', (line) => lines.push(line)),
    logLevel: 'error',
    workers: [],
    requestTimeoutMs,
  });
  stoppers.push(() => local.stop());
  return local;
}

async function waitForListener(port: number, child: ChildProcess): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const addresses = listeningAddresses(port);
    if (addresses.length > 0) return addresses;
    if (child.exitCode !== null) throw new Error(`java exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after 60 s`);
    await sleep(200);
  }
}

/** A `java` that has no compiler module, as a JRE image built without jdk.compiler answers. */
function javaWithoutCompiler(dir: string): string {
  const path = join(dir, 'java');
  writeFileSync(
    path,
    '#!/bin/sh\necho "Error occurred during initialization of boot layer" >&2\necho "java.lang.module.FindException: Module jdk.compiler not found" >&2\nexit 1\n',
  );
  chmodSync(path, 0o755);
  return path;
}

describe('where the local runtime listens', () => {
  it.skipIf(!canListSockets)('binds DynamoDB Local, s3rver, the local SQS and both HTTP servers to 127.0.0.1 only', async () => {
    const e = engines();
    const local = await startRuntime([]);
    const ports: Record<string, number> = {
      dynamodb: portOf(e.dynamoEndpoint),
      s3: portOf(e.s3Endpoint),
      sqs: portOf(e.sqsEndpoint),
      api: portOf(local.apiUrl),
      download: portOf(local.downloadUrl),
    };
    for (const [name, port] of Object.entries(ports)) {
      const addresses = listeningAddresses(port);
      expect(addresses, name).not.toEqual([]);
      expect(
        addresses.filter((a) => !isLoopback(a)),
        name,
      ).toEqual([]);
    }

    const external = externalAddress();
    if (external === undefined) return; // a machine with only a loopback interface has nothing else to be reached on
    // The probe can tell: a socket on every interface is reached through the machine's own address.
    const wildcard: Server = createServer((s) => s.destroy());
    await new Promise<void>((resolve) => wildcard.listen(0, '0.0.0.0', resolve));
    const wildcardPort = (wildcard.address() as { port: number }).port;
    expect(await tryConnect(external, wildcardPort)).toBe('connected');
    await new Promise<void>((resolve) => wildcard.close(() => resolve()));
    for (const [name, port] of Object.entries(ports)) expect(await tryConnect(external, port), name).not.toBe('connected');
  });

  it.skipIf(!canListSockets)(
    'finds the bare DynamoDB Local jar on every interface, reachable through the machine address (why the launcher exists)',
    async () => {
      const port = await freePort();
      const bare = dynamoCommand(port, null, { cacheRoot: join(tempDir(), 'cache'), java: javaWithoutCompiler(tempDir()), warn: () => undefined });
      const child = spawn('java', bare.args, { stdio: 'ignore' });
      children.push(child);
      const addresses = await waitForListener(port, child);
      expect(addresses.some((a) => a === '0.0.0.0' || a === '::')).toBe(true);
      const external = externalAddress();
      if (external !== undefined) expect(await tryConnect(external, port)).toBe('connected');
      child.kill('SIGTERM');
    },
  );

  it('falls back to the bare jar with a warning naming the exposure and the fix when Java has no compiler module', () => {
    const warnings: string[] = [];
    const cacheRoot = join(tempDir(), 'cache');
    const command = dynamoCommand(8000, null, { cacheRoot, java: javaWithoutCompiler(tempDir()), warn: (line) => warnings.push(line) });
    expect(command.listensOn).toBe('0.0.0.0');
    expect(command.args).toContain('-jar');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/listens on every network interface \(port 8000\)/);
    expect(warnings[0]).toContain('install a full JDK 17+, or block the port from other machines');
    expect(warnings[0]).toContain('README, "Exposure of the local engines"');
    // The section the warning points to exists, with the firewall rule for a port that changes at every start.
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Exposure of the local engines'));
    expect(readme).toContain('### Exposure of the local engines');
    expect(section).toContain('sudo ufw default deny incoming');
    // Nothing half-built is left for the next start to pick up.
    expect(existsSync(cacheRoot) ? readdirSync(cacheRoot) : []).toEqual([]);
  });

  it('compiles the loopback launcher once and reuses the cached class', () => {
    const cacheRoot = join(tempDir(), 'cache');
    const first = dynamoCommand(8000, null, { cacheRoot });
    expect(first.listensOn).toBe('127.0.0.1');
    expect(first.args).toEqual(expect.arrayContaining(['LoopbackDynamoDbLocal', '127.0.0.1', '-port', '8000', '-inMemory', '-sharedDb']));
    const [folder] = readdirSync(cacheRoot);
    expect(folder).toMatch(/^dynamodb-loopback-[0-9a-f]{16}$/);
    const classFile = join(cacheRoot, folder!, 'LoopbackDynamoDbLocal.class');
    const built = statSync(classFile).mtimeMs;

    const started = Date.now();
    const second = dynamoCommand(8001, '/data', { cacheRoot });
    expect(Date.now() - started).toBeLessThan(500); // no second compile (a compile takes seconds)
    expect(statSync(classFile).mtimeMs).toBe(built);
    expect(second.args).toEqual(expect.arrayContaining(['LoopbackDynamoDbLocal', '127.0.0.1', '-port', '8001', '-dbPath', '/data']));
    expect(readdirSync(cacheRoot)).toEqual([folder]);
  }, 60_000);
});

interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
  /** Milliseconds from connecting to the server closing the connection. */
  closedAfterMs: number;
  /** Bytes of the body the client had sent when the server closed. */
  sent: number;
}

/**
 * Opens a connection, sends `head`, then one byte of `trickle` every `everyMs` until the server
 * closes the connection (or `giveUpMs` passes): a client uploading slower than any limit.
 */
function trickle(port: number, head: string, trickleBytes: string, everyMs: number, giveUpMs = 15_000): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    let received = '';
    let sent = 0;
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => {
      if (!socket.writable || sent >= trickleBytes.length) return;
      socket.write(trickleBytes[sent] ?? '');
      sent += 1;
    }, everyMs);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server still held the connection after ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    // A reset after the reply is how a server drops an upload it stopped reading; the reply already arrived.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ received, closedAfterMs: Date.now() - startedAt, sent });
    });
  });
}

function parseReply(raw: string): { statusLine: string; headers: Record<string, string>; body: Record<string, unknown> } {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { statusLine, headers, body: JSON.parse(raw.slice(split + 4)) as Record<string, unknown> };
}

describe('how long the local HTTP servers wait for a request', () => {
  it('keeps API Gateway’s 29 s for the whole request and 10 s for the headers unless told otherwise', async () => {
    const server = await startHttpServer({
      routes: [],
      fallback: routeNotFoundRoute,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      loadHandler: async () => async () => ({ statusCode: 204 }),
    });
    stoppers.push(() => server.close());
    expect(REQUEST_TIMEOUT_MS).toBe(29_000);
    expect(HEADERS_TIMEOUT_MS).toBe(10_000);
    expect(server.timeouts).toEqual({ request: 29_000, headers: 10_000 });
  });

  it('answers a body trickling in slower than the limit with the 408 error object and closes the connection, on the API and the download server', async () => {
    const lines: string[] = [];
    const limitMs = 1500;
    const local = await startRuntime(lines, limitMs);
    const head = 'POST /v1/oauth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n';
    const exchanges = await Promise.all([local.apiUrl, local.downloadUrl].map((url) => trickle(portOf(url), head, 'a'.repeat(100_000), 200)));
    for (const exchange of exchanges) {
      expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(limitMs);
      // Node checks for expired requests every limit / 10 here (every second at 29 s), plus the 200 ms the reply is given.
      expect(exchange.closedAfterMs).toBeLessThan(limitMs + 1500);
      const reply = parseReply(exchange.received);
      expect(reply.statusLine).toBe('HTTP/1.1 408 Request Timeout');
      expect(reply.headers.connection).toBe('close');
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(reply.body).toEqual({
        code: 408,
        key: 'request_timeout',
        message: 'Request timeout',
        details: 'The whole request (headers and body) must arrive within 1.5 s; send it again',
        request_id: expect.stringMatching(/^v-/),
      });
      expect(reply.headers['x-request-id']).toBe(reply.body.request_id);
      const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.request_id === reply.body.request_id);
      expect(line).toMatchObject({ message: 'request', method: 'POST', path: '/v1/oauth/token', status: 408 });
    }
  });

  it('answers headers trickling in slower than the headers limit with 408 and closes the connection', async () => {
    const lines: string[] = [];
    const local = await startRuntime(lines, 1000);
    const exchange = await trickle(portOf(local.apiUrl), 'GET /v1/openapi.json HTTP/1.1\r\n', 'X-Slow: 1\r\n'.repeat(1000), 150);
    expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(1000);
    expect(exchange.closedAfterMs).toBeLessThan(2500);
    const reply = parseReply(exchange.received);
    expect(reply.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(reply.headers).toMatchObject({ connection: 'close', 'cache-control': 'no-store', 'x-request-id': reply.body.request_id });
    expect(reply.body).toMatchObject({ code: 408, key: 'request_timeout', details: 'The request headers must arrive within 1 s; send it again' });
    expect(lines.some((l) => l.includes(String(reply.body.request_id)) && l.includes('"status":408'))).toBe(true);
  });

  it('lets a handler take longer than the limit once the request has arrived', async () => {
    const server = await startHttpServer({
      routes: [],
      fallback: routeNotFoundRoute,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      requestTimeoutMs: 300,
      loadHandler: async () => async () => {
        await sleep(1200);
        return { statusCode: 200, body: '{"slow":true}' };
      },
    });
    stoppers.push(() => server.close());
    const reply = await fetch(`http://127.0.0.1:${server.port}/anything`, { method: 'POST', body: 'x' });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ slow: true });
  });
});
