import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { referralHolder } from '../db/entities.js';
import { type TransactItem, transact } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { ReferralHolder } from './redeemable-holder.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The referees of a voucher (one Query of its holders' partition, strongly consistent), in no set order. */
export function listReferees(deps: Deps, projectId: string, voucherId: string): Promise<ReferralHolder[]> {
  return referralHolder.query(deps, { key: [projectId, voucherId] }, { consistent: true });
}

/** The referee of a voucher with holder id `holderId` (GSI1, one item); null if none. */
export async function findReferee(deps: Deps, projectId: string, voucherId: string, holderId: string): Promise<ReferralHolder | null> {
  const [found] = await referralHolder.query(deps, { index: [projectId, voucherId] }, { sortRange: { from: holderId, to: holderId } });
  return found ?? null;
}

/** The referral codes a customer is a referee of (GSI2, every page). */
export function listRefereeHoldings(deps: Deps, projectId: string, customerId: string): Promise<ReferralHolder[]> {
  return referralHolder.query(deps, { sparse: [projectId, customerId] });
}

/**
 * Stores the referees in one transaction: each put holds only where that customer is not a
 * referee of the voucher yet. Returns the positions whose condition failed (a concurrent
 * request added the same customer), empty when all were written.
 */
export async function insertReferees(
  deps: Deps,
  holders: ReferralHolder[],
): Promise<{ ok: true } | { ok: false; taken: ReferralHolder[] } | { ok: false; conflict: true }> {
  const items: TransactItem[] = holders.map((h) => referralHolder.putIfAbsent(deps, h));
  const outcome = await transact(deps, items);
  if (outcome.ok) return outcome;
  if ('conflict' in outcome) return outcome;
  return { ok: false, taken: outcome.failed.flatMap((i) => (holders[i] ? [holders[i]] : [])) };
}

/** Removes a referee; false when it was already gone (a concurrent removal won). */
export async function removeReferee(deps: Deps, h: ReferralHolder): Promise<boolean> {
  try {
    await deps.ddb.send(
      new DeleteCommand({
        TableName: deps.tableName,
        Key: referralHolder.key(h.projectId, h.voucherId, h.customerId),
        ConditionExpression: 'id = :id',
        ExpressionAttributeValues: { ':id': h.id },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
