import { describe, expect, it } from 'vitest';
import { MAX_ITEM_BYTES, MAX_TRANSACTION_BYTES, storedBytes, transactionOversize } from '../../../lib/db/item-size.js';

const put = (bytes: number) => ({ Put: { TableName: 't', Item: { PK: 'a', data: 'x'.repeat(bytes) } } });

describe('transactionOversize', () => {
  it('measures UTF-8 bytes of the JSON, not characters', () => {
    expect(storedBytes({ a: 'é' })).toBe(JSON.stringify({ a: 'x' }).length + 1);
  });

  it('lets through a transaction whose items and total fit', () => {
    expect(transactionOversize([put(1000), put(MAX_ITEM_BYTES - 100)])).toBeNull();
  });

  it('names one item over the item budget', () => {
    expect(transactionOversize([put(10), put(MAX_ITEM_BYTES)])).toMatch(/one stored record would take \d+ bytes, over the 380000/);
  });

  it('names a total over the transaction budget though each item fits', () => {
    const items = Array.from({ length: Math.ceil(MAX_TRANSACTION_BYTES / (MAX_ITEM_BYTES - 100)) }, () => put(MAX_ITEM_BYTES - 100));
    expect(transactionOversize(items)).toMatch(/the write would take \d+ bytes, over the 3900000/);
  });
});
