import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoCommand, freePort } from '../../../infra/local/engines.js';
import { repoRoot, startLocal, type LocalRuntime } from '../../../infra/local/start-local.js';
import { createLogger } from '../../../lib/logger.js';
import { canListSockets, externalAddress, isLoopback, listeningAddresses, tryConnect } from '../../support/listening-sockets.js';
import { engines } from '../../support/runtime.js';

// Issue 20, item 4: who can reach the local runtime.

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

async function startRuntime(lines: string[]): Promise<LocalRuntime> {
  const local = await startLocal({
    dataDir: null,
    port: 0,
    downloadPort: 0,
    engines: engines(),
    logger: createLogger('info', (line) => lines.push(line)),
    logLevel: 'error',
    workers: [],
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
