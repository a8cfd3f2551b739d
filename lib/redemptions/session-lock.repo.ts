import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { voucher as voucherEntity, voucherSessionHold } from '../db/entities.js';
import { RETRY, retryOnConflict, transact } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { liveReservation, type SessionReservation } from './session-lock.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'>;
type Reads = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * The voucher with its live hold items (lib/db/entities.ts voucherSessionHold) in `sessions`, beside
 * the holds an older voucher item keeps in its own map (marked `item: true`, so a write knows where
 * each lives). One consistent Query of the voucher's holds, and only while `sessionsUntil` says one
 * may be live; expired ones are left out (TTL removes them).
 */
export async function withSessionHolds(deps: Reads, voucher: Voucher, nowMs: number): Promise<Voucher> {
  if (voucher.sessionsUntil === undefined || Date.parse(voucher.sessionsUntil) <= nowMs) return voucher;
  const holds = await voucherSessionHold.query(deps, { key: [voucher.projectId, voucher.id] }, { consistent: true });
  const sessions: Record<string, SessionReservation> = { ...voucher.sessions };
  for (const { sessionKey, expiresAt, uses, credits } of holds) {
    if (Date.parse(expiresAt) > nowMs) sessions[sessionKey] = { expiresAt, uses, credits, item: true };
  }
  return { ...voucher, sessions };
}

/** Each voucher of `vouchers` (by code) with its live hold items, read in parallel (only those that may have some). */
export async function attachSessionHolds(deps: Reads, vouchers: Map<string, Voucher>, nowMs: number): Promise<void> {
  await Promise.all(
    [...vouchers].map(async ([code, v]) => {
      const held = await withSessionHolds(deps, v, nowMs);
      if (held !== v) vouchers.set(code, held);
    }),
  );
}

/**
 * Removes session `key`'s hold from voucher `code` and raises `sessionsRevision`, so a redemption
 * that counted the hold re-reads: the hold's own item (Delete + the voucher's Update, one
 * transaction), else an older voucher item's `sessions.<key>` (one conditional UpdateItem).
 * @returns 'released'; 'expired' when the hold had already ended (it is removed all the same);
 *   'no_session' when the voucher holds nothing under `key`; 'no_voucher' when the voucher does not exist.
 */
export async function removeSessionHold(
  deps: Deps,
  projectId: string,
  code: string,
  key: string,
): Promise<'released' | 'expired' | 'no_session' | 'no_voucher'> {
  const nowMs = deps.clock.now().getTime();
  const voucher = await voucherEntity.get(deps, voucherEntity.key(projectId, code));
  if (!voucher) return 'no_voucher';
  const holdKey = voucherSessionHold.key(projectId, voucher.id, key);
  const hold = await voucherSessionHold.get(deps, holdKey);
  if (hold) {
    return retryOnConflict(`Too many concurrent changes of voucher ${code}'s sessions`, async () => {
      const outcome = await transact(deps, [
        { Delete: { TableName: deps.tableName, Key: holdKey, ConditionExpression: 'attribute_exists(PK)' } },
        {
          Update: {
            TableName: deps.tableName,
            Key: voucherEntity.key(projectId, code),
            UpdateExpression: 'SET sessionsRevision = if_not_exists(sessionsRevision, :zero) + :one',
            ConditionExpression: 'id = :vid',
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':vid': voucher.id },
          },
        },
      ]);
      if (outcome.ok) return liveReservation({ [key]: hold }, key, nowMs) ? 'released' : 'expired';
      if (!('failed' in outcome)) return RETRY;
      return outcome.failed.includes(0) ? 'no_session' : 'no_voucher';
    });
  }
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
    return liveReservation(old?.sessions, key, nowMs) ? 'released' : 'expired';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return error.Item ? 'no_session' : 'no_voucher';
    throw error;
  }
}
