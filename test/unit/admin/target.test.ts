import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resources } from '../../../lib/api/resources.js';
import { runningRuntime, targetSpecOf } from '../../../scripts/admin/target.js';
import { UsageError } from '../../../scripts/admin/usage-error.js';

describe('admin CLI target choice', () => {
  it('uses the given DynamoDB Local endpoint with the local table and region unless told otherwise', () => {
    expect(targetSpecOf({ endpoint: 'http://127.0.0.1:8000' }, {})).toEqual({
      kind: 'endpoint',
      endpoint: 'http://127.0.0.1:8000',
      tableName: resources.tableName,
      region: resources.region,
    });
    expect(targetSpecOf({ endpoint: 'http://127.0.0.1:8000', table: 't1' }, {})).toMatchObject({ tableName: 't1' });
  });

  it('targets a stage with --table and --region, or with PROMO_TABLE_NAME and AWS_REGION', () => {
    expect(targetSpecOf({ stage: 'us1', table: 'tbl', region: 'us-east-1' }, {})).toEqual({
      kind: 'stage',
      stage: 'us1',
      tableName: 'tbl',
      region: 'us-east-1',
    });
    expect(targetSpecOf({ stage: 'as1' }, { PROMO_TABLE_NAME: 'envtbl', AWS_REGION: 'ap-southeast-1' })).toEqual({
      kind: 'stage',
      stage: 'as1',
      tableName: 'envtbl',
      region: 'ap-southeast-1',
    });
    expect(targetSpecOf({ stage: 'api', table: 'flag' }, { PROMO_TABLE_NAME: 'env', AWS_REGION: 'eu-central-1' })).toMatchObject({
      tableName: 'flag',
    });
  });

  it('never sends a command to AWS because AWS_REGION or PROMO_TABLE_NAME happen to be set', () => {
    expect(targetSpecOf({}, { AWS_REGION: 'us-east-1', PROMO_TABLE_NAME: 'tbl', DATA_DIR: '/tmp/x' })).toEqual({
      kind: 'local',
      dataDir: '/tmp/x',
    });
  });

  it('defaults to .data/ at the repo root, and resolves a relative DATA_DIR', () => {
    expect(targetSpecOf({}, {})).toEqual({ kind: 'local', dataDir: resolve(import.meta.dirname, '../../../.data') });
    expect(targetSpecOf({}, { DATA_DIR: 'rel/dir' })).toEqual({ kind: 'local', dataDir: resolve('rel/dir') });
  });

  it.each([
    [{ endpoint: 'http://127.0.0.1:8000', stage: 'api', table: 't', region: 'r' }, /exclude each other/],
    [{ endpoint: 'not a url' }, /must be a URL/],
    [{ endpoint: 'ftp://127.0.0.1:8000' }, /http\(s\) URL/],
    [{ stage: 'eu9', table: 't', region: 'r' }, /one of api, us1, as1/],
    [{ stage: 'api', table: 't' }, /--stage needs --table/],
    [{ stage: 'api', region: 'r' }, /--stage needs --table/],
    [{ table: 't' }, /go with --stage or --endpoint/],
    [{ region: 'r' }, /go with --stage or --endpoint/],
  ])('rejects %o as a usage error', (flags, message) => {
    expect(() => targetSpecOf(flags, {})).toThrow(UsageError);
    expect(() => targetSpecOf(flags, {})).toThrow(message);
  });
});

describe('finding a running local runtime', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const dataDirWith = (content: string | null): string => {
    dir = mkdtempSync(join(tmpdir(), 'admin-target-'));
    if (content !== null) writeFileSync(join(dir, 'runtime.json'), content);
    return dir;
  };
  const info = { dynamoEndpoint: 'http://127.0.0.1:9', tableName: 'promo-engine', region: 'eu-central-1' };

  it('finds none without runtime.json', () => {
    expect(runningRuntime(dataDirWith(null))).toBeNull();
  });

  it('uses runtime.json while its process is alive', () => {
    const file = JSON.stringify({ pid: process.pid, ...info, apiUrl: 'http://localhost:3000', downloadUrl: 'http://localhost:3001' });
    expect(runningRuntime(dataDirWith(file))).toEqual({ pid: process.pid, ...info, apiUrl: 'http://localhost:3000', downloadUrl: 'http://localhost:3001' });
  });

  it('ignores a runtime.json left behind by a process that has ended', () => {
    const ended = spawnSync(process.execPath, ['-e', '']);
    expect(ended.pid).toBeGreaterThan(0);
    expect(runningRuntime(dataDirWith(JSON.stringify({ pid: ended.pid, ...info })))).toBeNull();
  });

  it('refuses to guess when runtime.json is not what the runtime writes', () => {
    expect(() => runningRuntime(dataDirWith('{not json'))).toThrow(/not valid JSON/);
    expect(() => runningRuntime(dataDirWith(JSON.stringify({ pid: process.pid })))).toThrow(/lacks pid, dynamoEndpoint/);
  });
});
