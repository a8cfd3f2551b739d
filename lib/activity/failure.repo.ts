import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { customerActivity } from '../db/entities.js';
import type { Runtime } from '../runtime.js';
import type { CustomerFailureRecord } from './activity.js';

/**
 * Puts a failure's activity record (lib/activity/failure.ts): one PutItem, on the failure path
 * only. A record that cannot be written is logged and dropped: the request's answer (its failure)
 * stays what it was, recorded or not.
 */
export async function recordFailure(deps: Pick<Runtime, 'ddb' | 'tableName' | 'logger'>, record: CustomerFailureRecord | null): Promise<void> {
  if (record === null) return;
  try {
    await deps.ddb.send(new PutCommand({ TableName: deps.tableName, Item: customerActivity.toItem(record) }));
  } catch (error) {
    deps.logger.warn('failure not recorded in the customer activity', { failed: record.failed, id: record.id, error: (error as Error).message });
  }
}
