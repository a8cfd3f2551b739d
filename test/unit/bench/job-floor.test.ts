import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callCounts, growth, perUnit, rekeyed, storedItems, transactionFloor, updatedKeys } from '../../bench/job-floor.js';

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

describe('transactionFloor', () => {
  const tx = (round: number, ...items: Record<string, unknown>[]) => ({ name: 'TransactWrite', round, input: { TransactItems: items } });

  it('re-keys each transaction, keeps "only if absent" on Puts, drops other conditions with the names and values only they used', () => {
    const calls = [
      { name: 'Get', round: 0, input: { Key: { PK: 'P#pa' } } },
      tx(
        1,
        { Put: { TableName: 't', Item: { PK: 'P#pa#R#1' }, ConditionExpression: 'attribute_not_exists(PK)' } },
        {
          Put: {
            TableName: 't',
            Item: { PK: 'P#pa#X' },
            ConditionExpression: '#rev = :rev',
            ExpressionAttributeNames: { '#rev': 'rev' },
            ExpressionAttributeValues: { ':rev': 3 },
          },
        },
        {
          Update: {
            TableName: 't',
            Key: { PK: 'P#pa#CP' },
            UpdateExpression: 'SET #done = :done ADD #n :one',
            ConditionExpression: '#done = :before',
            ExpressionAttributeNames: { '#done': 'done', '#n': 'n' },
            ExpressionAttributeValues: { ':done': 49, ':one': 1, ':before': 0 },
          },
        },
        { ConditionCheck: { TableName: 't', Key: { PK: 'P#pa#ACT' }, ConditionExpression: 'attribute_exists(PK)' } },
      ),
    ];
    const floor = transactionFloor(calls, 'pa', 'pb');
    expect(floor.loose).toEqual([]);
    expect(floor.rounds).toEqual([
      [
        [
          { Put: { TableName: 't', Item: { PK: 'P#pb#R#1' }, ConditionExpression: 'attribute_not_exists(PK)' } },
          { Put: { TableName: 't', Item: { PK: 'P#pb#X' } } },
          {
            Update: {
              TableName: 't',
              Key: { PK: 'P#pb#CP' },
              UpdateExpression: 'SET #done = :done ADD #n :one',
              ExpressionAttributeNames: { '#done': 'done', '#n': 'n' },
              ExpressionAttributeValues: { ':done': 49, ':one': 1 },
            },
          },
        ],
      ],
    ]);
  });

  it('groups transactions of one round side by side, orders rounds, and returns writes outside transactions as loose items', () => {
    const put = (pk: string) => ({ Put: { TableName: 't', Item: { PK: pk } } });
    const calls = [
      tx(4, put('P#pa#3')),
      tx(2, put('P#pa#1')),
      tx(2, put('P#pa#2')),
      { name: 'Put', round: 3, input: { TableName: 't', Item: { PK: 'P#pa#L' } } },
    ];
    const floor = transactionFloor(calls, 'pa', 'pb');
    expect(floor.rounds.map((r) => r.map((t) => (t[0] as { Put: { Item: { PK: string } } }).Put.Item.PK))).toEqual([['P#pb#1', 'P#pb#2'], ['P#pb#3']]);
    expect(floor.loose).toEqual([{ PK: 'P#pb#L' }]);
  });
});

describe('updatedKeys', () => {
  it("lists each key a transaction's Update names once, and nothing else", () => {
    const up = (pk: string) => ({ Update: { TableName: 't', Key: { PK: pk, SK: 'x' }, UpdateExpression: 'ADD n :one' } });
    const calls = [
      { name: 'TransactWrite', input: { TransactItems: [up('c'), { Put: { TableName: 't', Item: { PK: 'p' } } }, up('d')] } },
      { name: 'TransactWrite', input: { TransactItems: [up('c')] } },
      { name: 'Update', input: { Key: { PK: 'loose' } } },
    ];
    expect(updatedKeys(calls)).toEqual([
      { PK: 'c', SK: 'x' },
      { PK: 'd', SK: 'x' },
    ]);
  });
});
