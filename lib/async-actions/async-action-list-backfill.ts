import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { asyncAction } from '../db/entities.js';
import { ENTITY_ATTR, tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** What the backfill did. */
export interface AsyncActionListBackfill {
  /** Actions found without their list entry. */
  found: number;
  /** Given their entry now. */
  updated: number;
  /** Deleted between the Scan and the write (nothing to do). */
  gone: number;
}

const { gsi1 } = tableDesign.indexes;

/**
 * Gives async actions written before GET /v1/async-actions existed their GSI1 list entry (the
 * project's `ASYNC_ACTIONS` partition, `<createdAt>#<id>`), as every action written now gets it
 * from its entity. Finds them with one filtered Scan of the table (an operator's one-off; no
 * request path scans), of one project's actions only with `projectId` (the Scan still reads the
 * table, its filter keeps that project's). Each write is an UpdateItem conditioned on the action
 * being the one read (same id and creation time); the entry comes from fields that never change,
 * so a rerun writes the same values. Idempotent: a rerun finds nothing.
 */
export async function backfillAsyncActionList(deps: Deps, projectId?: string): Promise<AsyncActionListBackfill> {
  const report: AsyncActionListBackfill = { found: 0, updated: 0, gone: 0 };
  const names: Record<string, string> = { '#entity': ENTITY_ATTR, '#pk': gsi1.partitionKey };
  const values: Record<string, unknown> = { ':entity': asyncAction.name };
  let filter = '#entity = :entity AND attribute_not_exists(#pk)';
  if (projectId !== undefined) {
    names['#project'] = 'projectId';
    values[':project'] = projectId;
    filter += ' AND #project = :project';
  }
  let start: Record<string, unknown> | undefined;
  do {
    const res = await deps.ddb.send(
      new ScanCommand({
        TableName: deps.tableName,
        FilterExpression: filter,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) {
      report.found += 1;
      const action = asyncAction.fromItem(item);
      const keys = asyncAction.toItem(action);
      try {
        await deps.ddb.send(
          new UpdateCommand({
            TableName: deps.tableName,
            Key: asyncAction.key(action.projectId, action.id),
            UpdateExpression: 'SET #pk = :pk, #sk = :sk',
            ConditionExpression: 'id = :id AND createdAt = :createdAt',
            ExpressionAttributeNames: { '#pk': gsi1.partitionKey, '#sk': gsi1.sortKey },
            ExpressionAttributeValues: { ':pk': keys[gsi1.partitionKey], ':sk': keys[gsi1.sortKey], ':id': action.id, ':createdAt': action.createdAt },
          }),
        );
        report.updated += 1;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        report.gone += 1;
      }
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return report;
}
