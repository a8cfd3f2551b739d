import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { customerActivity } from '../db/entities.js';
import { RedeemableInapplicableError, RedemptionRefusedError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { Evaluation } from '../validations/evaluation.js';
import { failureRecordOf } from './failure.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'logger' | 'ids'>;

/**
 * Puts the activity record of `e` failing (lib/activity/failure.ts), when its customer was stored:
 * one PutItem, on the failure path only. A record that cannot be written is logged and dropped:
 * the request's answer (its failure) stays what it was, recorded or not.
 */
export async function recordFailure(deps: Deps, e: Evaluation, failed: 'validation' | 'redemption', refusal: { key: string; message: string } | null = null) {
  const record = failureRecordOf(e, failed, deps.ids.id(failed === 'validation' ? 'valid' : 'r'), refusal);
  if (record === null) return;
  try {
    await deps.ddb.send(new PutCommand({ TableName: deps.tableName, Item: customerActivity.toItem(record) }));
  } catch (error) {
    deps.logger.warn('failure not recorded in the customer activity', { id: record.id, error: (error as Error).message });
  }
}

/** A redemption's refusal, before it is thrown: inapplicable (the evaluation tells why), or refused at commit. Other errors are no failure of the customer's. */
export function recordRefusal(deps: Deps, e: Evaluation, error: unknown): Promise<void> | undefined {
  if (error instanceof RedeemableInapplicableError) return recordFailure(deps, e, 'redemption');
  if (error instanceof RedemptionRefusedError) return recordFailure(deps, e, 'redemption', { key: error.key, message: error.details ?? error.message });
}
