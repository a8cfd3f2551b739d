import { describe, expect, it } from 'vitest';
import type { ItemKey } from '../../../lib/db/entity.js';
import { getInOrder, queryPage } from '../../../lib/db/query-page.js';
import type { Runtime } from '../../../lib/runtime.js';

/** A paged Query over `items` in pages of `pageSize` that records how many pages it was asked for. */
function pagedQuery(items: number[], sizes: number[], served: { pages: number }) {
  return async function* (pageSize: number): AsyncGenerator<number[]> {
    sizes.push(pageSize);
    for (let i = 0; i < items.length; i += pageSize) {
      served.pages += 1;
      yield items.slice(i, i + pageSize);
    }
  };
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('queryPage', () => {
  it('skips, takes, and asks for one more item in a single page to know whether any follow', async () => {
    const sizes: number[] = [];
    const served = { pages: 0 };
    expect(await queryPage(pagedQuery(range(50), sizes, served), 10, 5)).toEqual({ items: [10, 11, 12, 13, 14], hasMore: true });
    expect(sizes).toEqual([16]);
    expect(served.pages).toBe(1);
  });

  it('says no more follow when the page ends the items, and gives nothing past the end', async () => {
    const served = { pages: 0 };
    expect(await queryPage(pagedQuery(range(15), [], served), 10, 5)).toEqual({ items: [10, 11, 12, 13, 14], hasMore: false });
    expect(await queryPage(pagedQuery(range(15), [], served), 20, 5)).toEqual({ items: [], hasMore: false });
  });

  it('follows short pages (a filtered Query) and stops reading once it has the items', async () => {
    let pages = 0;
    async function* shortPages(): AsyncGenerator<number[]> {
      for (let i = 0; i < 100; i += 3) {
        pages += 1;
        yield range(3).map((n) => n + i);
      }
    }
    expect(await queryPage(shortPages, 2, 4)).toEqual({ items: [2, 3, 4, 5], hasMore: true });
    expect(pages).toBe(3);
  });
});

describe('getInOrder', () => {
  it('gives the items in the order of the ids however the batch read answers, leaves out the missing ones and names them when throttled', async () => {
    const busy: string[] = [];
    const stored = [{ id: 'b' }, { id: 'a' }, { id: 'c' }];
    const entity = {
      key: (projectId: string, id: string): ItemKey => ({ PK: `P#${projectId}#X#${id}`, SK: 'X' }),
      async getMany(_deps: unknown, keys: ItemKey[], message: string) {
        busy.push(message);
        const wanted = new Set(keys.map((k) => k.PK));
        return stored.filter((item) => wanted.has(`P#p1#X#${item.id}`)).reverse();
      },
    };
    const deps = {} as Pick<Runtime, 'ddb' | 'tableName'>;
    expect(await getInOrder(deps, entity, 'p1', ['a', 'gone', 'c', 'b'], 'things')).toEqual([{ id: 'a' }, { id: 'c' }, { id: 'b' }]);
    expect(busy).toEqual(['Too many concurrent reads of things of project p1']);
  });
});
