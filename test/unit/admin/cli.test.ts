import { describe, expect, it } from 'vitest';
import { COMMANDS, keyJson } from '../../../scripts/admin/commands.js';
import { main } from '../../../scripts/admin/cli.js';

/** Runs the CLI in-process. No target flag reaches a data store in these tests: each fails or finishes before. */
async function run(argv: string[], env: NodeJS.ProcessEnv = { DATA_DIR: '/nonexistent/admin-unit' }) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(argv, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) }, env);
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

const APP_ID = '00000000-0000-4000-8000-000000000000';

describe('admin CLI help', () => {
  it.each([['--help'], ['-h']])('prints the overview listing every command for %s', async (flag) => {
    const r = await run([flag]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage: npm run admin -- <command>/);
    for (const c of COMMANDS) expect(r.stdout).toContain(`  ${c.group} ${c.name}`);
    expect(r.stdout).toContain('--stage <api|us1|as1> --table <name> --region <region>');
  });

  it.each([['project'], ['key'], ['backfill']])('prints the sub-commands of %s', async (group) => {
    for (const argv of [
      [group, '--help'],
      ['-h', group],
    ]) {
      const r = await run(argv);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: npm run admin -- ${group} <command>`));
      for (const c of COMMANDS.filter((x) => x.group === group)) expect(r.stdout).toContain(`  ${group} ${c.name}`);
    }
  });

  it('prints its own usage for every command, with --help or -h anywhere, even beside bad flags', async () => {
    for (const c of COMMANDS) {
      for (const argv of [
        [c.group, c.name, '--help'],
        [c.group, c.name, '-h'],
        ['--help', c.group, c.name, '--bogus'],
      ]) {
        const r = await run(argv);
        expect(r.code, argv.join(' ')).toBe(0);
        expect(r.stderr).toBe('');
        expect(r.stdout).toMatch(new RegExp(`^Usage: npm run admin -- ${c.group} ${c.name}[ \\n]`));
        for (const [flag] of c.optionHelp) expect(r.stdout).toContain(flag);
        expect(r.stdout).toContain('-h, --help');
      }
    }
  });
});

describe('admin CLI command-line errors', () => {
  it.each([
    [[], /no command given/, /Usage: npm run admin -- <command>/],
    [['projects', 'create'], /unknown command 'projects'/, /Usage: npm run admin -- <command>/],
    [['key'], /'key' needs a command/, /Usage: npm run admin -- key <command>/],
    [['key', 'rotate', APP_ID], /unknown command 'key rotate'/, /Usage: npm run admin -- key <command>/],
    [['project', 'create'], /--name is required/, /Usage: npm run admin -- project create/],
    [['project', 'create', '--name', '  '], /--name is required/, /project create/],
    [['project', 'create', '--name'], /argument missing/, /project create/],
    [['project', 'create', '--name', 'x', '--bogus'], /Unknown option '--bogus'/, /project create/],
    [['project', 'create', '--name', 'x', 'extra'], /unexpected argument 'extra'/, /project create/],
    [['key', 'create'], /--project is required/, /key create/],
    [['key', 'list'], /--project is required/, /key list/],
    [['key', 'block'], /missing <app_id>/, /key block/],
    [['key', 'delete', APP_ID, APP_ID], /unexpected argument/, /key delete/],
    [['key', 'permissions', APP_ID], /give --scopes "<value> \.\.\." or --all/, /key permissions/],
    [['key', 'permissions', APP_ID, '--scopes', 'vouchers', '--all'], /--scopes and --all exclude each other/, /key permissions/],
    [['key', 'permissions', APP_ID, '--cidrs', '10.0.0.0/8'], /Unknown option '--cidrs'/, /key permissions/],
    [['key', 'ip-allow-list', APP_ID], /give --cidrs "<value> \.\.\." or --any/, /key ip-allow-list/],
    [['key', 'ip-allow-list', APP_ID, '--cidrs', '10.0.0.0/8', '--any'], /exclude each other/, /key ip-allow-list/],
    [['key', 'block', APP_ID, '--stage', 'eu9', '--table', 't', '--region', 'r'], /--stage must be one of api, us1, as1/, /key block/],
    [['key', 'block', APP_ID, '--stage', 'api'], /--stage needs --table/, /key block/],
    [['key', 'block', APP_ID, '--table', 't'], /go with --stage or --endpoint/, /key block/],
    [['key', 'block', APP_ID, '--endpoint', 'http://127.0.0.1:1', '--stage', 'api'], /exclude each other/, /key block/],
  ])('exits 2 with the usage on stderr for %j', async (argv, message, usage) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(usage);
  });

  it('finds target flags before the command as well as after it', async () => {
    const r = await run(['--stage', 'api', 'key', 'block', APP_ID]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--stage needs --table/);
  });
});

describe('admin CLI key output', () => {
  it('names each field it prints, so a stored hash can never slip into the output', () => {
    const view = {
      appId: 'a',
      projectId: 'p',
      name: 'n',
      status: 'ACTIVE' as const,
      permissions: null,
      ipAllowList: ['10.0.0.0/8'],
      side: 'server' as const,
      trustedOrigins: null,
      originless: true,
      createdAt: 'c',
      updatedAt: 'u',
      tokenHash: 'leak',
    };
    expect(keyJson(view)).toEqual({
      app_id: 'a',
      project_id: 'p',
      name: 'n',
      status: 'ACTIVE',
      permissions: null,
      ip_allow_list: ['10.0.0.0/8'],
      side: 'server',
      created_at: 'c',
      updated_at: 'u',
    });
  });
});
