import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callCounts, growth, perUnit, rekeyed, storedItems } from '../../bench/job-floor.js';

describe('storedItems', () => {
  it('takes the Puts of transactions, PutItems and BatchWriteItem PutRequests in order, and leaves Updates, Deletes and reads out', () => {
    const calls = [
      { name: 'Get', input: { Key: { PK: 'a' } } },
      {
        name: 'TransactWrite',
        input: {
          TransactItems: [
            { Put: { TableName: 't', Item: { PK: 'p1' } } },
            { Update: { TableName: 't', Key: { PK: 'c' }, UpdateExpression: 'ADD n :one' } },
            { Delete: { TableName: 't', Key: { PK: 'd' } } },
            { Put: { TableName: 't', Item: { PK: 'p2' } } },
          ],
        },
      },
      { name: 'Put', input: { TableName: 't', Item: { PK: 'p3' } } },
      { name: 'BatchWrite', input: { RequestItems: { t: [{ PutRequest: { Item: { PK: 'p4' } } }, { DeleteRequest: { Key: { PK: 'x' } } }] } } },
      { name: 'Update', input: { Key: { PK: 'u' } } },
    ];
    expect(storedItems(calls).map((i) => i.PK)).toEqual(['p1', 'p2', 'p3', 'p4']);
    expect(storedItems([])).toEqual([]);
  });
});

describe('rekeyed', () => {
  it('replaces the id in every string, keys and nested values included, and keeps the rest', () => {
    const item = { PK: 'P#proj_1#PRODUCT#x', SK: 'proj_1', n: 5, list: ['proj_1', 2], map: { a: 'in proj_1 too', b: null, c: true } };
    expect(rekeyed(item, 'proj_1', 'proj_2')).toEqual({
      PK: 'P#proj_2#PRODUCT#x',
      SK: 'proj_2',
      n: 5,
      list: ['proj_2', 2],
      map: { a: 'in proj_2 too', b: null, c: true },
    });
  });

  it('leaves its input unchanged and refuses an empty id', () => {
    const item = { PK: 'P#a' };
    rekeyed(item, 'a', 'b');
    expect(item).toEqual({ PK: 'P#a' });
    expect(() => rekeyed(item, '', 'b')).toThrow(/non-empty/);
  });

  it('keeps the JSON size when the ids are of the same length, and is undone by swapping back', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.stringMatching(/^[a-z]{4}$/), (value, tail) => {
        const item = { PK: `P#proj${tail}`, value };
        const there = rekeyed(item, `proj${tail}`, 'projZZZZ');
        expect(JSON.stringify(there).length).toBe(JSON.stringify(item).length);
        expect(rekeyed(there, 'projZZZZ', `proj${tail}`).PK).toBe(item.PK);
      }),
    );
  });
});

describe('call counts', () => {
  it('counts calls by name, sorted, and says them per unit', () => {
    const counts = callCounts([{ name: 'TransactWrite' }, { name: 'Get' }, { name: 'Get' }, { name: 'Query' }]);
    expect(Object.keys(counts)).toEqual(['Get', 'Query', 'TransactWrite']);
    expect(counts).toEqual({ Get: 2, Query: 1, TransactWrite: 1 });
    expect(perUnit(counts, 2)).toBe('Get 1, Query 0.5, TransactWrite 0.5');
    expect(perUnit(counts, 0)).toBe('');
  });

  it('growth is never below 0', () => {
    expect(growth(10, 4)).toBe(6);
    expect(growth(3, 4)).toBe(0);
  });
});
