import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticateKeyPair } from '../../../lib/auth/authenticate.js';
import { main } from '../../../scripts/admin/cli.js';
import { engines, testRuntime } from '../../support/runtime.js';

async function admin(argv: string[], env: NodeJS.ProcessEnv) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(argv, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) }, env);
  return { code, stderr, json: (stdout.length ? JSON.parse(stdout.join('\n')) : undefined) as Record<string, string> };
}

describe('admin CLI targets', () => {
  let dataDir: string | undefined;
  afterEach(() => {
    vi.unstubAllEnvs();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });

  it('works on the running local runtime named by DATA_DIR/runtime.json, without starting DynamoDB Local', async () => {
    const e = engines();
    dataDir = mkdtempSync(join(tmpdir(), 'admin-runtime-'));
    writeFileSync(
      join(dataDir, 'runtime.json'),
      JSON.stringify({
        pid: process.pid,
        dynamoEndpoint: e.dynamoEndpoint,
        tableName: e.tableName,
        region: e.region,
        apiUrl: 'http://127.0.0.1:3000',
        downloadUrl: 'http://127.0.0.1:3001',
      }),
    );
    const r = await admin(['project', 'create', '--name', 'via runtime.json'], { DATA_DIR: dataDir });
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([`target: local runtime (pid ${process.pid}) at ${e.dynamoEndpoint}, table ${e.tableName}`]);
    await expect(authenticateKeyPair(testRuntime(), r.json.app_id!, r.json.app_token!, undefined)).resolves.toMatchObject({
      projectId: r.json.project_id,
    });
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
  });

  it('works on a stage table through the default AWS credential chain, naming stage, table and region but no secret', async () => {
    const e = engines();
    // The SDK's own endpoint variable points the stage's client at DynamoDB Local: the CLI sets no endpoint itself.
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', e.dynamoEndpoint);
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIASTAGETEST');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'stage-test-secret-value');
    const r = await admin(['--stage', 'us1', 'project', 'create', '--name', 'on a stage'], {
      PROMO_TABLE_NAME: e.tableName,
      AWS_REGION: e.region,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toEqual([`target: stage us1, table ${e.tableName} in ${e.region} (default AWS credentials)`]);
    await expect(authenticateKeyPair(testRuntime(), r.json.app_id!, r.json.app_token!, undefined)).resolves.toMatchObject({
      projectId: r.json.project_id,
    });
  });
});
