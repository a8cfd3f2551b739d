import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { independentGroups, mergedAdds, newRow } from '../../../lib/bulk/bulk-chunks.js';
import type { TransactItem } from '../../../lib/db/transact.js';

const add = (shard: number, delta = 1): TransactItem => ({
  Update: {
    TableName: 't',
    Key: { PK: 'P#p#CUSTOMER_COUNT#ALL', SK: `SHARD#${shard}` },
    UpdateExpression: 'SET entity = :entity, v = :v ADD #count :delta',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':entity': 'x', ':v': 1, ':delta': delta },
  },
});
const put = (id: string): TransactItem => ({ Put: { TableName: 't', Item: { PK: id, SK: id }, ConditionExpression: 'attribute_not_exists(PK)' } });
const keyOf = (i: TransactItem) => `${i.Update?.Key?.PK}|${i.Update?.Key?.SK}`;

describe('bulk chunks: count adds and independent groups', () => {
  it('sums the adds on one item into one, each item once, totals kept', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ shard: fc.integer({ min: 0, max: 7 }), delta: fc.integer({ min: -3, max: 3 }) }), { maxLength: 60 }), (adds) => {
        const merged = mergedAdds(adds.map((a) => add(a.shard, a.delta)));
        expect(new Set(merged.map(keyOf)).size).toBe(merged.length);
        for (let shard = 0; shard < 8; shard += 1) {
          const want = adds.filter((a) => a.shard === shard).reduce((n, a) => n + a.delta, 0);
          const got = merged.find((m) => m.Update?.Key?.SK === `SHARD#${shard}`)?.Update?.ExpressionAttributeValues?.[':delta'] ?? 0;
          expect(got).toBe(adds.some((a) => a.shard === shard) ? want : 0);
        }
      }),
    );
  });

  it('keeps every row once, in row order within a group, and no count item in two groups; a group fits a transaction when its rows can', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 49 }), (shards) => {
        const rows = shards.map((shard, index) => newRow(index, true, [put(`s${index}`), put(`c${index}`), add(shard)]));
        const groups = independentGroups(rows);
        expect(
          groups
            .flat()
            .map((r) => r.index)
            .sort((a, b) => a - b),
        ).toEqual(rows.map((r) => r.index));
        const owner = new Map<string, number>();
        for (const [g, group] of groups.entries()) {
          expect(group.map((r) => r.index)).toEqual([...group.map((r) => r.index)].sort((a, b) => a - b));
          for (const key of new Set(group.flatMap((r) => r.adds.map(keyOf)))) {
            expect(owner.get(key) ?? g).toBe(g);
            owner.set(key, g);
          }
          expect(group.reduce((n, r) => n + r.own.length, 0) + new Set(group.flatMap((r) => r.adds.map(keyOf))).size).toBeLessThan(100);
        }
      }),
    );
  });
});
