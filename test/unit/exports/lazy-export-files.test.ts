import { describe, expect, it } from 'vitest';
import type { ReadableExportFiles } from '../../../lib/exports/export-files.js';
import { lazyExportFiles } from '../../../lib/exports/lazy-export-files.js';

const store = (deleted: string[]): ReadableExportFiles => ({
  upload: async () => ({ write: async () => undefined, complete: async () => undefined, abort: async () => undefined }),
  delete: async (key) => {
    deleted.push(key);
  },
  presignGet: async (key) => `https://files.test/${key}`,
  read: async () => 'missing',
});

describe('lazyExportFiles (the export jobs worker’s S3 chunk)', () => {
  it('loads nothing until warmed or used, then loads once for every call', async () => {
    const deleted: string[] = [];
    let loads = 0;
    const files = lazyExportFiles(async () => {
      loads += 1;
      return store(deleted);
    });
    expect(loads).toBe(0);
    files.warm();
    expect(loads).toBe(1);
    await files.delete('a');
    expect(await files.presignGet('b', 60, new Date(0))).toBe('https://files.test/b');
    expect(await files.read('c')).toBe('missing');
    files.warm();
    expect(loads).toBe(1);
    expect(deleted).toEqual(['a']);
  });

  it('reports a failed load to the call that needs it, not to warm(), and loads again on the next call', async () => {
    let loads = 0;
    const files = lazyExportFiles(async () => {
      loads += 1;
      if (loads === 1) throw new Error('chunk missing');
      return store([]);
    });
    files.warm();
    await expect(files.read('k')).rejects.toThrow('chunk missing');
    expect(await files.read('k')).toBe('missing');
    expect(loads).toBe(2);
  });
});
