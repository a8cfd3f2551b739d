import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { voucher as voucherEntity } from '../db/entities.js';
import type { Runtime } from '../runtime.js';
import { liveReservation } from './session-lock.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'>;

/**
 * Removes session `key`'s hold from voucher `code` (and raises `sessionsRevision`, so a redemption
 * that counted the hold re-reads). One conditional UpdateItem: a hold that is not there changes
 * nothing.
 * @returns 'released'; 'expired' when the hold had already ended (it is pruned all the same);
 *   'no_session' when the voucher holds nothing under `key`; 'no_voucher' when the voucher does not exist.
 */
export async function removeSessionHold(
  deps: Deps,
  projectId: string,
  code: string,
  key: string,
): Promise<'released' | 'expired' | 'no_session' | 'no_voucher'> {
  try {
    const res = await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: voucherEntity.key(projectId, code),
        UpdateExpression: 'REMOVE sessions.#key SET sessionsRevision = if_not_exists(sessionsRevision, :zero) + :one',
        ConditionExpression: 'attribute_exists(sessions.#key)',
        ExpressionAttributeNames: { '#key': key },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        ReturnValues: 'ALL_OLD',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    const old = res.Attributes ? voucherEntity.fromItem(res.Attributes) : null;
    return liveReservation(old?.sessions, key, deps.clock.now().getTime()) ? 'released' : 'expired';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return error.Item ? 'no_session' : 'no_voucher';
    throw error;
  }
}
