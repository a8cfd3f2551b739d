/**
 * One page of a list read by offset, the way the `page`/`limit` lists of the API read their
 * entries: skips `skip` items of a paged Query, takes `take`, and reads one more to know whether
 * any follow. `query` opens the Query with the page size that covers all of that in one round trip
 * (`skip + take + 1`); reading stops as soon as the items are in, so the rest of the partition is
 * never read. (Unlike an entity's `queryPage`, which returns a single DynamoDB page.)
 */
export async function queryPage<T>(query: (pageSize: number) => AsyncIterable<T[]>, skip: number, take: number): Promise<{ items: T[]; hasMore: boolean }> {
  const want = skip + take + 1;
  const read: T[] = [];
  for await (const page of query(want)) {
    read.push(...page);
    if (read.length >= want) break;
  }
  return { items: read.slice(skip, skip + take), hasMore: read.length > skip + take };
}
