import { describe, expect, it } from 'vitest';
import { authenticateKeyPair } from '../../../lib/auth/authenticate.js';
import { hashSecret } from '../../../lib/auth/secrets.js';
import { ForbiddenError, UnauthorizedError } from '../../../lib/errors.js';
import { main } from '../../../scripts/admin/cli.js';
import { engines, testRuntime } from '../../support/runtime.js';

interface Pair {
  project_id: string;
  app_id: string;
  app_token: string;
}

/** Runs the CLI in-process against the test DynamoDB Local. */
async function admin(...argv: string[]) {
  const e = engines();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(
    [...argv, '--endpoint', e.dynamoEndpoint, '--table', e.tableName],
    { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) },
    {},
  );
  const out = stdout.join('\n');
  return { code, out, stderr, json: (out ? JSON.parse(out) : undefined) as unknown };
}

async function newProject(name = 'cli test'): Promise<Pair> {
  const r = await admin('project', 'create', '--name', name);
  expect(r.code).toBe(0);
  return r.json as Pair;
}

let runtime: ReturnType<typeof testRuntime> | undefined;
const auth = (pair: Pair, ip = '198.51.100.1') => authenticateKeyPair((runtime ??= testRuntime()), pair.app_id, pair.app_token, ip);

/** A failed command writes the target line and then exactly one `error:` line, never a stack. */
function expectOneLineError(r: Awaited<ReturnType<typeof admin>>, message: RegExp): void {
  expect(r.code).toBe(1);
  expect(r.out).toBe('');
  expect(r.stderr).toHaveLength(2);
  expect(r.stderr[0]).toMatch(/^target: /);
  expect(r.stderr[1]).toMatch(/^error: /);
  expect(r.stderr[1]).toMatch(message);
  expect(r.stderr[1]).not.toContain('\n');
  expect(r.stderr.join('\n')).not.toMatch(/^\s+at .+:\d+/m);
}

describe('admin CLI: projects and keys', () => {
  it('creates a project whose printed pair authenticates, and says where on stderr without the token', async () => {
    const r = await admin('project', 'create', '--name', 'Shop');
    expect(r.code).toBe(0);
    const pair = r.json as Pair;
    expect(Object.keys(pair).sort()).toEqual(['app_id', 'app_token', 'project_id']);
    expect(pair.project_id).toMatch(/^proj_/);
    await expect(auth(pair)).resolves.toMatchObject({ projectId: pair.project_id, appId: pair.app_id, via: 'key_pair' });
    expect(r.stderr).toEqual([`target: DynamoDB at ${engines().dynamoEndpoint}, table ${engines().tableName}`]);
  });

  it('adds a named key to a project and lists its keys without any token or hash', async () => {
    const first = await newProject();
    const created = await admin('key', 'create', '--project', first.project_id, '--name', 'ci');
    expect(created.code).toBe(0);
    const second = created.json as Pair;
    expect(second.project_id).toBe(first.project_id);
    expect(second.app_id).not.toBe(first.app_id);
    await expect(auth(second)).resolves.toMatchObject({ projectId: first.project_id, appId: second.app_id });

    const listed = await admin('key', 'list', '--project', first.project_id);
    expect(listed.code).toBe(0);
    const keys = listed.json as Array<Record<string, unknown>>;
    expect(keys.map((k) => [k.app_id, k.name]).sort()).toEqual(
      [
        [first.app_id, 'default'],
        [second.app_id, 'ci'],
      ].sort(),
    );
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['app_id', 'created_at', 'ip_allow_list', 'name', 'permissions', 'project_id', 'side', 'status', 'updated_at']);
      expect(key).toMatchObject({ project_id: first.project_id, status: 'ACTIVE', permissions: null, ip_allow_list: null });
    }
    for (const secret of [first.app_token, second.app_token, hashSecret(first.app_token), hashSecret(second.app_token)]) {
      expect(listed.out).not.toContain(secret);
    }
    expect(listed.out).not.toMatch(/token/i);
  });

  it('fails with one line for a key of an unknown project, and for listing one', async () => {
    expectOneLineError(await admin('key', 'create', '--project', 'proj_missing'), /^error: Resource not found \(Cannot find project with id proj_missing\)$/);
    expectOneLineError(await admin('key', 'list', '--project', 'proj_missing'), /Cannot find project with id proj_missing/);
  });

  it('blocks a key so its pair is refused, and unblocks it so it works again', async () => {
    const pair = await newProject();
    const blocked = await admin('key', 'block', pair.app_id);
    expect(blocked.code).toBe(0);
    expect(blocked.json).toMatchObject({ app_id: pair.app_id, status: 'BLOCKED' });
    await expect(auth(pair)).rejects.toThrow(UnauthorizedError);

    const unblocked = await admin('key', 'unblock', pair.app_id);
    expect(unblocked.code).toBe(0);
    expect(unblocked.json).toMatchObject({ app_id: pair.app_id, status: 'ACTIVE' });
    await expect(auth(pair)).resolves.toMatchObject({ appId: pair.app_id });
  });

  it('deletes a key so its pair is refused, and a second delete finds nothing', async () => {
    const pair = await newProject();
    const deleted = await admin('key', 'delete', pair.app_id);
    expect(deleted.code).toBe(0);
    expect(deleted.json).toEqual({ app_id: pair.app_id, deleted: true });
    await expect(auth(pair)).rejects.toThrow(UnauthorizedError);
    expectOneLineError(await admin('key', 'delete', pair.app_id), /Cannot find app_key with id/);
  });

  it('regenerates a key: the old token is refused, the printed one works', async () => {
    const pair = await newProject();
    const r = await admin('key', 'regenerate', pair.app_id);
    expect(r.code).toBe(0);
    const fresh = r.json as Pair;
    expect(fresh).toMatchObject({ project_id: pair.project_id, app_id: pair.app_id });
    expect(fresh.app_token).not.toBe(pair.app_token);
    await expect(auth(pair)).rejects.toThrow(UnauthorizedError);
    await expect(auth(fresh)).resolves.toMatchObject({ appId: pair.app_id });
  });

  it("sets a key's permissions and restores all scopes with --all", async () => {
    const pair = await newProject();
    const set = await admin('key', 'permissions', pair.app_id, '--scopes', ' vouchers  campaigns ');
    expect(set.code).toBe(0);
    expect(set.json).toMatchObject({ app_id: pair.app_id, permissions: ['vouchers', 'campaigns'] });
    await expect(auth(pair)).resolves.toMatchObject({ keyPermissions: ['vouchers', 'campaigns'] });

    const all = await admin('key', 'permissions', pair.app_id, '--all');
    expect(all.code).toBe(0);
    expect(all.json).toMatchObject({ app_id: pair.app_id, permissions: null });
    await expect(auth(pair)).resolves.toMatchObject({ keyPermissions: null });
  });

  it('limits a key to its IP allow-list and opens it again with --any', async () => {
    const pair = await newProject();
    const set = await admin('key', 'ip-allow-list', pair.app_id, '--cidrs', '10.0.0.0/8 203.0.113.7');
    expect(set.code).toBe(0);
    expect(set.json).toMatchObject({ app_id: pair.app_id, ip_allow_list: ['10.0.0.0/8', '203.0.113.7'] });
    await expect(auth(pair, '198.51.100.1')).rejects.toThrow(ForbiddenError);
    await expect(auth(pair, '10.20.30.40')).resolves.toMatchObject({ appId: pair.app_id });
    await expect(auth(pair, '203.0.113.7')).resolves.toMatchObject({ appId: pair.app_id });

    const any = await admin('key', 'ip-allow-list', pair.app_id, '--any');
    expect(any.code).toBe(0);
    expect(any.json).toMatchObject({ ip_allow_list: null });
    await expect(auth(pair, '198.51.100.1')).resolves.toMatchObject({ appId: pair.app_id });
  });

  it('rejects unknown scopes and malformed CIDRs in one line and leaves the key as it was', async () => {
    const pair = await newProject();
    expectOneLineError(await admin('key', 'permissions', pair.app_id, '--scopes', 'vouchers bogus'), /^error: Invalid scope: bogus$/);
    expectOneLineError(await admin('key', 'permissions', pair.app_id, '--scopes', ''), /At least one scope/);
    expectOneLineError(await admin('key', 'ip-allow-list', pair.app_id, '--cidrs', '10.0.0.0/33 1.2.3.4'), /^error: Invalid CIDR: 10\.0\.0\.0\/33$/);
    await expect(auth(pair, '198.51.100.1')).resolves.toMatchObject({ keyPermissions: null });
  });

  it('fails in one line for an unknown app id, whatever the command', async () => {
    const unknown = '11111111-2222-4333-8444-555555555555';
    for (const argv of [
      ['block', unknown],
      ['unblock', unknown],
      ['delete', unknown],
      ['regenerate', unknown],
      ['permissions', unknown, '--all'],
      ['ip-allow-list', unknown, '--any'],
    ]) {
      expectOneLineError(await admin('key', ...argv), new RegExp(`^error: Resource not found \\(Cannot find app_key with id ${unknown}\\)$`));
    }
  });

  it('fails in one line when the table does not exist', async () => {
    const e = engines();
    const stderr: string[] = [];
    const code = await main(
      ['project', 'create', '--name', 'x', '--endpoint', e.dynamoEndpoint, '--table', 'no-such-table'],
      { stdout: () => undefined, stderr: (l) => stderr.push(l) },
      {},
    );
    expect(code).toBe(1);
    expect(stderr).toHaveLength(2);
    expect(stderr[1]).toMatch(/^error: ResourceNotFoundException: /);
  });
});

describe('npm run admin: client-side keys and switches', () => {
  it('makes a client-side key with trusted origins, changes them, and turns the client switches on', async () => {
    const project = await newProject('client cli');
    const created = await admin('key', 'create-client', '--project', project.project_id, '--origins', 'https://Shop.Example/ http://localhost:5173');
    expect(created.code).toBe(0);
    const client = created.json as Pair;
    const listed = (await admin('key', 'list', '--project', project.project_id)).json as Array<Record<string, unknown>>;
    expect(listed.find((k) => k.app_id === client.app_id)).toMatchObject({
      side: 'client',
      trusted_origins: ['https://shop.example', 'http://localhost:5173'],
      originless: true,
    });
    const changed = await admin('key', 'origins', client.app_id, '--origins', 'https://www.shop.example', '--no-originless');
    expect(changed.json).toMatchObject({ trusted_origins: ['https://www.shop.example'], originless: false });
    expectOneLineError(await admin('key', 'origins', client.app_id, '--origins', 'shop.example'), /Invalid origin/);
    // A client pair never opens the server API.
    await expect(auth(client)).rejects.toMatchObject({ status: 401 });
    const switched = await admin('project', 'client-settings', project.project_id, '--redeem', 'on', '--publish', 'off');
    expect(switched.json).toEqual({
      project_id: project.project_id,
      client_redeem_enabled: true,
      client_publish_enabled: false,
      client_loyalty_events_enabled: false,
    });
    expect((await admin('project', 'client-settings', project.project_id, '--redeem', 'maybe')).code).toBe(2);
  });
});
