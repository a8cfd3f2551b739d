/**
 * How an import's list is cut into chunks: each chunk is stored as one item and written by the
 * worker in one transaction with its checkpoint, so it holds at most `maxVouchers` vouchers and
 * `maxBytes` of JSON (a DynamoDB item holds 400 KB). Order is kept. I/O-free.
 */
export function chunkImport<T>(items: readonly T[], maxVouchers: number, maxBytes: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item));
    if (current.length > 0 && (current.length >= maxVouchers || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
