import { voucher as voucherEntity } from '../db/entities.js';
import { type TransactItem, transact } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { SessionHold } from './session-holds.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Writes session `key`'s holds in one TransactWriteItems: on each voucher, the reservation set under
 * the key, the expired holds removed, `sessionsRevision` raised. Each update holds only while the
 * voucher is as the evaluation read it: the same `sessionsRevision` (no hold came or went), the
 * same `redeemedQuantity` (no use was taken) and, on a gift card, the same balance. So of racing
 * sessions for the last use, one writes and the others re-evaluate (and find it held).
 * @returns false when any voucher changed since it was read, or the write conflicted (nothing is written): evaluate again.
 */
export async function writeSessionHolds(deps: Deps, projectId: string, key: string, holds: readonly SessionHold[]): Promise<boolean> {
  const items = holds.map((h): TransactItem => {
    const v = h.voucher;
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':zero': 0, ':one': 1, ':rev': v.sessionsRevision ?? 0, ':redeemed': v.redeemedQuantity };
    let condition = '(attribute_not_exists(sessionsRevision) OR sessionsRevision = :rev) AND redeemedQuantity = :redeemed';
    let set: string;
    if (v.sessions === undefined) {
      // No map yet: a path inside it cannot be set, so the map is written whole (and must still be absent).
      values[':map'] = { [key]: h.reservation };
      set = 'sessions = :map';
      condition += ' AND attribute_not_exists(sessions)';
    } else {
      names['#key'] = key;
      values[':hold'] = h.reservation;
      set = 'sessions.#key = :hold';
    }
    const prune = h.prune.map((expired, j) => {
      names[`#e${j}`] = expired;
      return `sessions.#e${j}`;
    });
    if (v.gift) {
      values[':balance'] = v.gift.balance;
      condition += ' AND gift.balance = :balance';
    }
    return {
      Update: {
        TableName: deps.tableName,
        Key: voucherEntity.key(projectId, v.code),
        UpdateExpression: `SET ${set}, sessionsRevision = if_not_exists(sessionsRevision, :zero) + :one${prune.length > 0 ? ` REMOVE ${prune.join(', ')}` : ''}`,
        ConditionExpression: `attribute_exists(PK) AND ${condition}`,
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      },
    };
  });
  if (items.length === 0) return true;
  return (await transact(deps, items)).ok;
}
