import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocal, type LocalRuntime } from '../../../infra/local/start-local.js';
import { authenticateKeyPair } from '../../../lib/auth/authenticate.js';
import { silentLogger } from '../../../lib/logger.js';
import { main } from '../../../scripts/admin/cli.js';
import { engines, testRuntime } from '../../support/runtime.js';

async function admin(argv: string[], env: NodeJS.ProcessEnv) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(argv, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) }, env);
  return { code, stderr, json: (stdout.length ? JSON.parse(stdout.join('\n')) : undefined) as Record<string, string> };
}

const start = (announceIn: string | undefined, dataDir: string | null = null): Promise<LocalRuntime> =>
  startLocal({ dataDir, ...(announceIn ? { announceIn } : {}), port: 0, downloadPort: 0, engines: engines(), logger: silentLogger, workers: [] });

describe('admin CLI and an in-memory local runtime (npm start -- --in-memory)', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const folder = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-in-memory-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  it('finds the running in-memory runtime through the data folder and writes to its database, not to the folder', async () => {
    const dataDir = folder();
    const runtime = await start(dataDir);
    cleanups.push(() => runtime.stop());

    const r = await admin(['project', 'create', '--name', 'in memory'], { DATA_DIR: dataDir });

    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([`target: in-memory local runtime (pid ${process.pid}) at ${runtime.engines.dynamoEndpoint}, table ${runtime.engines.tableName}`]);
    await expect(authenticateKeyPair(testRuntime(), r.json.app_id ?? '', r.json.app_token ?? '', undefined)).resolves.toMatchObject({
      projectId: r.json.project_id,
    });
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
  });

  it('forgets the runtime when it stops', async () => {
    const dataDir = folder();
    const runtime = await start(dataDir);
    expect(readdirSync(dataDir).filter((f) => f.startsWith('runtime-in-memory-'))).toHaveLength(1);
    await runtime.stop();
    expect(readdirSync(dataDir).filter((f) => f.startsWith('runtime-in-memory-'))).toEqual([]);
  });

  it('refuses with one line naming each runtime when an on-disk and an in-memory runtime both run', async () => {
    const dataDir = folder();
    const inMemory = await start(dataDir);
    cleanups.push(() => inMemory.stop());
    const onDisk = await start(undefined, dataDir);
    cleanups.push(() => onDisk.stop());

    const r = await admin(['project', 'create', '--name', 'which one?'], { DATA_DIR: dataDir });

    expect(r.code).toBe(1);
    expect(r.stderr).toHaveLength(1);
    expect(r.stderr[0]).toMatch(
      /^error: More than one local runtime is running; choose one with --endpoint \(local runtime pid \d+: --endpoint http:\/\/\S+; in-memory local runtime pid \d+: --endpoint http:\/\/\S+\)/,
    );
  });
});
