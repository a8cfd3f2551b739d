import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../infra/local/start-local.js';

// `npm start` end to end: the real entry point in its own process, as a developer runs it.

const main = join(repoRoot, 'infra', 'local', 'main.ts');
const children: ChildProcess[] = [];
const tempDirs: string[] = [];

interface Run {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function run(args: string[], env: NodeJS.ProcessEnv, detached = false): Run {
  // What `npm start` runs (package.json: `exec node --import tsx infra/local/main.ts`): the started PID is the runtime's.
  // Not the tsx CLI, whose signal relay gives its child 30 ms to report a signal and then SIGKILLs it: under load a
  // stop by SIGTERM to it skipped the runtime's cleanup.
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], { cwd: repoRoot, env, detached, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => ({ stdout, stderr }), exited };
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'local-cli-'));
  tempDirs.push(dir);
  return dir;
}

/** Processes whose command line mentions `text` (DynamoDB Local's names its -dbPath). */
function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(join('/proc', entry, 'cmdline'), 'utf8').includes(text)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm start (infra/local/main.ts)', () => {
  it('says in one stderr line how to install Java when it is missing, and exits 1', async () => {
    const bin = tempDir();
    symlinkSync(process.execPath, join(bin, 'node'));
    const started = run(['--in-memory'], { ...process.env, PATH: bin });
    const { code } = await started.exited;
    const lines = started
      .output()
      .stderr.split('\n')
      .filter((l) => l.trim() !== '');
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Java/);
    expect(lines[0]).toMatch(/install/);
    expect(lines[0]).not.toMatch(/\bat .*:\d+/);
  });

  it('refuses an unknown flag in one line', async () => {
    const started = run(['--bogus'], { ...process.env });
    expect((await started.exited).code).toBe(1);
    expect(started.output().stderr.trim()).toBe("Unknown argument '--bogus' (try --help)");
  });

  describe('with a data folder', () => {
    const dataDir = tempDir();
    const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', DOWNLOAD_PORT: '0', IN_MEMORY: '', DEV_APP_ID: '', DEV_APP_TOKEN: '' };
    let firstKey: { project_id: string; app_id: string; app_token: string } | undefined;

    // Each start reuses the folder of the one before; each is stopped a different way.
    it.each([
      ['Ctrl-C (SIGINT to the whole process group)', 'SIGINT', 'group'],
      ['SIGTERM to the started PID', 'SIGTERM', 'started'],
      ['SIGHUP to the runtime process', 'SIGHUP', 'runtime'],
    ] as const)('keeps the dev key and data across restarts and stops every engine on %s', async (_, signal, target) => {
      const started = run([], env, true);
      const runtimeFile = join(dataDir, 'runtime.json');
      const runtime = await waitFor(
        () => (existsSync(runtimeFile) ? (JSON.parse(readFileSync(runtimeFile, 'utf8')) as Record<string, unknown>) : undefined),
        'runtime.json',
      );
      expect(runtime).toMatchObject({ pid: expect.any(Number), dynamoEndpoint: expect.stringMatching(/^http:/), tableName: 'promo-engine' });
      const apiUrl = String(runtime.apiUrl);
      const keyFile = join(dataDir, 'dev-key.json');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const key = JSON.parse(readFileSync(keyFile, 'utf8')) as {
        project_id: string;
        app_id: string;
        app_token: string;
        management_id: string;
        management_token: string;
      };
      firstKey ??= key;
      expect(key).toEqual(firstKey); // same project id too: the key was found in the kept table, not re-created

      const banner = await waitFor(() => (started.output().stdout.includes('Ctrl-C') ? started.output().stdout : undefined), 'banner');
      expect(banner).toContain(key.app_id);
      expect(banner).toContain(key.app_token);
      expect(banner).toContain(`X-Management-Id     ${key.management_id}`);
      expect(banner).toContain(`X-Management-Token  ${key.management_token}`);
      expect(banner).toContain(
        `curl -s -X POST ${apiUrl}/v1/oauth/token -H "X-App-Id: ${key.app_id}" -H "X-App-Token: ${key.app_token}" -d grant_type=client_credentials -d scope=api`,
      );
      const token = await fetch(`${apiUrl}/v1/oauth/token`, {
        method: 'POST',
        headers: { 'X-App-Id': key.app_id, 'X-App-Token': key.app_token },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api' }),
      });
      expect(token.status).toBe(200);
      expect(processesMentioning(join(dataDir, 'dynamodb')).length).toBe(1);

      const pid = started.child.pid ?? 0;
      if (target === 'group') process.kill(-pid, signal);
      else process.kill(target === 'started' ? pid : Number(runtime.pid), signal);
      await started.exited;
      await waitFor(() => (processesMentioning(dataDir).length === 0 ? true : undefined), 'every process on the data folder to end', 10_000);
      expect(existsSync(runtimeFile)).toBe(false);
      expect(started.output().stderr).not.toMatch(/\bat .*:\d+:\d+/);
    });
  });
});
