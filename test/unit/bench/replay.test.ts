import { describe, expect, it } from 'vitest';
import type { TransactItem } from '../../../lib/db/transact.js';
import { callSummary, itemBytes, opsPerSecond, rotation, withFreshPutKeys, writeUnits } from '../../bench/replay.js';

describe('withFreshPutKeys', () => {
  const items: TransactItem[] = [
    { Put: { TableName: 't', Item: { PK: 'P#1', SK: 'REDEMPTION#r_1', amount: 5 }, ConditionExpression: 'attribute_not_exists(PK)' } },
    { Update: { TableName: 't', Key: { PK: 'P#1', SK: 'SHARD#3' }, UpdateExpression: 'ADD #c :one', ExpressionAttributeNames: { '#c': 'count' } } },
  ];

  it('moves every Put to a new sort key and keeps the rest of the item, its condition and the Updates', () => {
    const out = withFreshPutKeys(items, '#floor7');
    expect(out[0]?.Put?.Item).toEqual({ PK: 'P#1', SK: 'REDEMPTION#r_1#floor7', amount: 5 });
    expect(out[0]?.Put?.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(out[1]).toEqual(items[1]);
  });

  it('leaves its input unchanged and shares nothing with it', () => {
    const before = structuredClone(items);
    const out = withFreshPutKeys(items, '#x');
    expect(items).toEqual(before);
    expect(out[1]).not.toBe(items[1]);
    expect(out[0]?.Put).not.toBe(items[0]?.Put);
  });
});

describe('callSummary', () => {
  it('folds runs of one command and keeps the order', () => {
    expect(callSummary(['Get', 'BatchGet', 'BatchGet', 'TransactWrite', 'Get'])).toBe('Get → BatchGet ×2 → TransactWrite → Get');
    expect(callSummary([])).toBe('');
  });
});

describe('opsPerSecond', () => {
  it('is count per second, 0 for no time', () => {
    expect(opsPerSecond(50, 250)).toBe(200);
    expect(opsPerSecond(5, 0)).toBe(0);
  });
});

describe('rotation', () => {
  it('puts each side first once every `sides` runs, and keeps every side in every run', () => {
    expect(rotation(0, 3)).toEqual([0, 1, 2]);
    expect(rotation(1, 3)).toEqual([1, 2, 0]);
    expect(rotation(5, 3)).toEqual([2, 0, 1]);
    const firsts = Array.from({ length: 6 }, (_, run) => rotation(run, 3)[0]);
    expect(firsts.sort()).toEqual([0, 0, 1, 1, 2, 2]);
  });
});

describe('itemBytes and writeUnits', () => {
  it('counts names and strings in UTF-8, numbers by digits, nesting with its overhead', () => {
    expect(itemBytes('abc')).toBe(3);
    expect(itemBytes('é')).toBe(2);
    expect(itemBytes(12345)).toBe(4);
    expect(itemBytes(true)).toBe(1);
    expect(itemBytes({ PK: 'ab' })).toBe(3 + 1 + 2 + 2);
    expect(itemBytes(['a', 'b'])).toBe(3 + 2 + 2);
  });

  it('grows with the item and bills 1 unit per KB started, 2 in a transaction', () => {
    expect(itemBytes({ s: 'x'.repeat(3000) })).toBeGreaterThan(3000);
    expect(writeUnits(100, false)).toBe(1);
    expect(writeUnits(1024, true)).toBe(2);
    expect(writeUnits(1025, true)).toBe(4);
  });
});
