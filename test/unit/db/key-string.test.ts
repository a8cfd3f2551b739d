import { describe, expect, it } from 'vitest';
import { itemKeyString, keyString } from '../../../lib/db/key-string.js';

describe('keyString', () => {
  it('names a key by its partition and sort values, for a key object as for an item', () => {
    const key = { PK: 'P#p1#VOUCHER#A', SK: 'VOUCHER' };
    expect(keyString(key)).toBe('P#p1#VOUCHER#A\u0000VOUCHER');
    expect(itemKeyString({ ...key, code: 'A' })).toBe(keyString(key));
  });

  it('keeps the string on the key out of sight: not enumerable, not in JSON, equal to a plain key', () => {
    const key = { PK: 'P#p1#CAMPAIGN#c', SK: 'CAMPAIGN' };
    const first = keyString(key);
    expect(keyString(key)).toBe(first);
    expect(Object.keys(key)).toEqual(['PK', 'SK']);
    expect(JSON.stringify(key)).toBe('{"PK":"P#p1#CAMPAIGN#c","SK":"CAMPAIGN"}');
    expect(key).toStrictEqual({ PK: 'P#p1#CAMPAIGN#c', SK: 'CAMPAIGN' });
    expect({ ...key }).toStrictEqual({ PK: 'P#p1#CAMPAIGN#c', SK: 'CAMPAIGN' });
  });

  it('names a frozen key too', () => {
    expect(keyString(Object.freeze({ PK: 'a', SK: 'b' }))).toBe('a\u0000b');
  });
});
