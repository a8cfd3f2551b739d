import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engines } from '../../support/runtime.js';

const root = resolve(import.meta.dirname, '../../..');

/** Runs the real entry the way `npm run admin` does. */
function entry(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(
      resolve(root, 'node_modules', '.bin', 'tsx'),
      ['scripts/admin.ts', ...argv],
      { cwd: root, env: { ...process.env, DATA_DIR: '/nonexistent/admin-entry' }, timeout: 30_000 },
      (error, stdout, stderr) => res({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

describe('admin CLI entry (scripts/admin.ts)', () => {
  it('runs as a process and maps help, usage errors and failures to exit statuses 0, 2 and 1', async () => {
    const e = engines();
    const [help, unknown, failed] = await Promise.all([
      entry('--help'),
      entry('bogus'),
      entry('key', 'block', 'no-such-app-id', '--endpoint', e.dynamoEndpoint, '--table', e.tableName),
    ]);

    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run admin -- <command>/);
    expect(help.stderr).toBe('');

    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^error: unknown command 'bogus'\n\nUsage: /);

    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toBe(
      `target: DynamoDB at ${e.dynamoEndpoint}, table ${e.tableName}\nerror: Resource not found (Cannot find app_key with id no-such-app-id)\n`,
    );
  });
});
