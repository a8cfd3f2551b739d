/*
 * Bytes a write stores, checked before it is sent so that an accepted request never meets
 * DynamoDB's limits (400 KB an item, 4 MB a TransactWriteItems) as a 500 (docs/decisions.md
 * "Stored size bounds"). The measure is the item's JSON length: DynamoDB counts each attribute
 * name and value once with at most a byte of overhead, where JSON adds quotes, a colon and a
 * comma, so the JSON length is an upper estimate; the budgets keep a further margin below the limits.
 */

/** The most one order may take when POST/PUT /v1/orders stores it: room is left for its `redemptions` entries. */
export const MAX_ORDER_BYTES = 300_000;
/** The most any one item of a transaction may take (DynamoDB: 409,600 bytes). */
export const MAX_ITEM_BYTES = 380_000;
/** The most one transaction may carry in all (DynamoDB: 4 MiB). */
export const MAX_TRANSACTION_BYTES = 3_900_000;

export const storedBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '');

/**
 * Why `items` (TransactWriteItems entries) do not fit, or null when they do: each entry is
 * measured whole (its key, expressions and values), so the estimate errs on the large side.
 */
export function transactionOversize(items: readonly unknown[]): string | null {
  let total = 0;
  let largest = 0;
  for (const item of items) {
    const bytes = storedBytes(item);
    total += bytes;
    largest = Math.max(largest, bytes);
  }
  if (largest > MAX_ITEM_BYTES) return `one stored record would take ${largest} bytes, over the ${MAX_ITEM_BYTES} a record may hold`;
  if (total > MAX_TRANSACTION_BYTES) return `the write would take ${total} bytes, over the ${MAX_TRANSACTION_BYTES} one request may store`;
  return null;
}
