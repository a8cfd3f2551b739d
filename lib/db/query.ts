import type { DynamoDBDocumentClient, QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';

/**
 * Runs a Query page by page, following LastEvaluatedKey, so a caller can stop early or hold one
 * page at a time. Each yielded array is one page's raw items (repos map them to domain objects).
 */
export async function* queryPages(ddb: DynamoDBDocumentClient, input: Omit<QueryCommandInput, 'ExclusiveStartKey'>): AsyncGenerator<Record<string, unknown>[]> {
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    yield res.Items ?? [];
    start = res.LastEvaluatedKey;
  } while (start);
}

/** Every item a Query matches; for partitions known to be small. */
export async function queryAll(ddb: DynamoDBDocumentClient, input: Omit<QueryCommandInput, 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const page of queryPages(ddb, input)) out.push(...page);
  return out;
}
