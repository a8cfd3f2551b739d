import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

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

  it('no longer calls vouchers_count above 1 unsupported in the decisions', () => {
    expect(read('docs/decisions.md')).not.toMatch(/vouchers_count above 1 is not supported/);
  });
});
