import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../scripts/admin/cli.js';

async function admin(argv: string[], env: NodeJS.ProcessEnv) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(argv, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) }, env);
  return { code, stderr, json: (stdout.length ? JSON.parse(stdout.join('\n')) : undefined) as unknown };
}

/** Command lines of running processes that mention `text` (the CLI's java has `-dbPath <dir>` in its own). */
const processesMentioning = (text: string): string[] =>
  spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.includes(text));

describe('admin CLI on local data with no runtime running', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'admin-own-dynamo-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts DynamoDB Local on DATA_DIR itself, writes the data there, and stops it afterwards', async () => {
    // A runtime.json whose process has ended must not be trusted.
    const ended = spawnSync(process.execPath, ['-e', '']);
    writeFileSync(
      join(dataDir, 'runtime.json'),
      JSON.stringify({ pid: ended.pid, dynamoEndpoint: 'http://127.0.0.1:9', tableName: 'promo-engine', region: 'eu-central-1' }),
    );
    const dbPath = join(dataDir, 'dynamodb');

    const created = await admin(['project', 'create', '--name', 'offline'], { DATA_DIR: dataDir });

    expect(created.code).toBe(0);
    expect(created.stderr).toEqual([`target: local data in ${dataDir} (runtime not running; DynamoDB Local started for this command), table promo-engine`]);
    expect(processesMentioning(dbPath)).toEqual([]);
    // DynamoDB Local keeps items as text in its SQLite file: finding the ids there shows the data stays in DATA_DIR.
    const pair = created.json as { project_id: string; app_id: string };
    const db = readFileSync(join(dbPath, 'shared-local-instance.db'), 'latin1');
    expect(db).toContain(pair.project_id);
    expect(db).toContain(pair.app_id);
  });
});
