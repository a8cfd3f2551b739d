import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../scripts/admin/commands.js';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

describe('what a newcomer reads', () => {
  it("sets ACCESS_TOKEN in the README's OAuth example before using it", () => {
    const oauth = /## OAuth 2\.0 flow\n```bash\n([\s\S]*?)```/.exec(read('README.md'))?.[1] ?? '';
    const set = oauth.indexOf('ACCESS_TOKEN=');
    const used = oauth.indexOf('$ACCESS_TOKEN');
    expect(set).toBeGreaterThanOrEqual(0);
    expect(used).toBeGreaterThan(set);
  });

  it("takes the API's address from API= in every README shell block, never a hard-coded port", () => {
    const blocks = [...read('README.md').matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const code = block
        .split('\n')
        .map((line) => line.replace(/(^|\s)#.*$/, ''))
        .join('\n');
      // The one place a port may appear: the default of `API=${API:-...}`.
      expect(code.replace(/API=\$\{API:-http:\/\/localhost:3000\}/g, '')).not.toMatch(/localhost:\d+/);
      if (code.includes('$API')) expect(code).toMatch(/API=\$\{API:-http:\/\/localhost:3000\}[\s\S]*\$API/);
    }
  });

  it("lists every `npm run admin` command in the README's CLI list", () => {
    const readme = read('README.md');
    const missing = COMMANDS.map((c) => `npm run admin -- ${c.group} ${c.name}`).filter((line) => !readme.includes(line));
    expect(missing).toEqual([]);
  });

  it('no longer calls vouchers_count above 1 unsupported in the decisions', () => {
    expect(read('docs/decisions.md')).not.toMatch(/vouchers_count above 1 is not supported/);
  });
});
