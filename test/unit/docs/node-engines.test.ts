import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

type Version = [number, number, number];
const parse = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = text.replace(/x/g, '0').split('.').map(Number);
  return [major, minor, patch];
};
const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The `engines.node` range forms npm packages use (`>=`, `<`, `^`, bare majors, `*`, `||`), enough for the lock's ranges. */
function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|<|>|\^)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => {
        if (comparator === '*' || comparator === '') return true;
        const match = /^(>=|<=|<|>|\^)?(\d[\w.]*)$/.exec(comparator);
        if (!match) throw new Error(`range form not understood: ${comparator}`);
        const [, op, bound = '0'] = match;
        const b = parse(bound);
        const c = compare(version, b);
        if (op === '>=') return c >= 0;
        if (op === '>') return c > 0;
        if (op === '<') return c < 0;
        if (op === '<=') return c <= 0;
        // `^a.b.c` and a bare major: the same major, at or above the bound.
        return version[0] === b[0] && c >= 0;
      }),
  );
}

describe('the Node version the README names', () => {
  it('is accepted by every package npm ci installs, so it warns about no engine', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const named = /Node (\d+\.\d+)\+/.exec(readme)?.[1];
    expect(named, 'README names the oldest Node it supports as "Node <major>.<minor>+"').toBeDefined();
    const oldest = parse(named ?? '0');
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const refusing = Object.entries(lock.packages).flatMap(([name, pkg]) => {
      const range = !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
      return range && !pkg.optional && !satisfies(oldest, range) ? [`${name} (${range})`] : [];
    });
    expect(refusing).toEqual([]);
  });
});
