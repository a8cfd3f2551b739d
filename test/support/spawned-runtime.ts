import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from '../../infra/local/start-local.js';

/**
 * `npm start` as a process of its own on a data folder, for the tests that stop it with a signal
 * (kill -9, Ctrl-C) in the middle of some work and start it again on the same folder.
 */

const main = join(repoRoot, 'infra', 'local', 'main.ts');
const children: ChildProcess[] = [];
const tempDirs: string[] = [];

export interface Run {
  child: ChildProcess;
  pid: number;
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface RuntimeFile {
  pid: number;
  dynamoEndpoint: string;
  tableName: string;
  region: string;
  apiUrl: string;
}

/** A data folder of the test's own, removed by `stopAllRuntimes`. */
export function tempDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** `npm start` (node --import tsx infra/local/main.ts) on `dataDir`, in a process group of its own as a terminal would run it. */
export function startRuntime(dataDir: string, extraEnv: Record<string, string> = {}): Run {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    DOWNLOAD_PORT: '0',
    IN_MEMORY: '',
    DEV_APP_ID: '',
    DEV_APP_TOKEN: '',
    LOG_LEVEL: 'info',
    ...extraEnv,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', main], { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.resume();
  // 'close', not 'exit': by then everything the process wrote to stdout has been read.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, pid: child.pid ?? 0, stdout: () => stdout, exited };
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string | (() => string),
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(everyMs);
  }
}

/** The runtime file once `run` (not a killed run before it, whose file stays behind) has written it: the runtime is up. */
export const runtimeOf = (dataDir: string, run: Run): Promise<RuntimeFile> =>
  waitFor(() => {
    const file = join(dataDir, 'runtime.json');
    if (!existsSync(file)) return undefined;
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as RuntimeFile;
      return parsed.pid === run.pid ? parsed : undefined;
    } catch {
      return undefined;
    }
  }, 'the runtime file');

/** Processes whose command line mentions `text` (DynamoDB Local names its -dbPath under the data folder). */
export function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        return readFileSync(join('/proc', entry, 'cmdline'), 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Kills `run` with SIGKILL and waits until nothing on its data folder runs (DynamoDB Local follows its runtime). */
export async function killRuntime(run: Run, dataDir: string): Promise<void> {
  process.kill(run.pid, 'SIGKILL');
  const exit = await run.exited;
  if (exit.signal !== 'SIGKILL') throw new Error(`the runtime ended with ${JSON.stringify(exit)} before the kill`);
  await waitFor(() => (processesMentioning(dataDir).length === 0 ? true : undefined), 'every process on the data folder to end', 15_000);
}

export type Api = (method: string, path: string, body?: unknown, extraHeaders?: Record<string, string>) => Promise<Record<string, unknown>>;

/** JSON calls with the given headers; a status of 300 or more throws with the reply. */
export function apiWithHeaders(baseUrl: string, headers: Record<string, string>): Api {
  return async (method, path, body, extraHeaders = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers, ...extraHeaders },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

export const apiOf = (runtime: RuntimeFile, key: { app_id: string; app_token: string }): Api =>
  apiWithHeaders(runtime.apiUrl, { 'X-App-Id': key.app_id, 'X-App-Token': key.app_token });

/** The dev key pair `npm start` keeps in its data folder. */
export const devKeyOf = (dataDir: string): { project_id: string; app_id: string; app_token: string } =>
  JSON.parse(readFileSync(join(dataDir, 'dev-key.json'), 'utf8')) as { project_id: string; app_id: string; app_token: string };

/** For afterAll: kills every runtime still running and removes the data folders once their processes ended. */
export async function stopAllRuntimes(): Promise<void> {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  const exits = running.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of running) child.kill('SIGKILL');
  await Promise.all(exits);
  for (const dir of tempDirs) {
    // DynamoDB Local exits once its runtime is gone; wait for it before removing its files.
    await waitFor(() => (processesMentioning(dir).length === 0 ? true : undefined), `the processes on ${dir} to end`, 15_000).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}
