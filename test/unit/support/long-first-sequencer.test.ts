import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONG_FILES } from '../../support/long-first-sequencer.js';

const root = join(import.meta.dirname, '..', '..', '..');

describe('the long-first test order', () => {
  it('names only test files that exist: a renamed long file would silently lose its early start', () => {
    expect(LONG_FILES.filter((file) => !existsSync(join(root, file)))).toEqual([]);
    expect(new Set(LONG_FILES).size).toBe(LONG_FILES.length);
  });
});
