import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as entities from '../db/entities.js';
import { tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';

/**
 * One page of a campaign's voucher codes from its voucher index (GSI1), after `startAfter`: how the
 * campaign jobs (deletion, vouchers update) walk a campaign's vouchers in batches.
 */
export async function campaignVoucherCodesPage(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
  projectId: string,
  campaignId: string,
  limit: number,
  startAfter: Record<string, unknown> | undefined,
): Promise<{ codes: string[]; next: Record<string, unknown> | undefined }> {
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.tableName,
      IndexName: tableDesign.indexes.gsi1.name,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': entities.voucher.index.partition(projectId, campaignId) },
      ProjectionExpression: 'code',
      Limit: limit,
      ...(startAfter ? { ExclusiveStartKey: startAfter } : {}),
    }),
  );
  return { codes: (res.Items ?? []).map((item) => String(item.code)), next: res.LastEvaluatedKey };
}
