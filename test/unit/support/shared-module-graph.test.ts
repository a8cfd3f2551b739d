import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const unitDir = join(root, 'test', 'unit');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

// Built from parts so this file does not name them itself.
const processWide = ['mock', 'doMock', 'stubGlobal', 'stubEnv', 'useFakeTimers', 'spyOn'].map((name) => new RegExp(`\\bvi\\.${name}\\(`));

describe('unit files run in one module graph per worker (vitest.config.ts: isolate false)', () => {
  it('use no module mocks, stubs, spies or fake timers, which would leak into the next file of the worker', () => {
    const offenders = filesUnder(unitDir).filter((file) => processWide.some((pattern) => pattern.test(readFileSync(file, 'utf8'))));
    expect(offenders.map((file) => relative(root, file))).toEqual([]);
    expect(filesUnder(unitDir).length).toBeGreaterThan(100);
  });
});
