import { voucher as voucherEntity, voucherSessionHold } from '../db/entities.js';
import { type TransactItem, transact } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { SessionHold } from './session-holds.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Writes session `key`'s holds in one TransactWriteItems: per voucher, the hold's own item (Put,
 * lib/db/entities.ts voucherSessionHold: the voucher item does not grow with its sessions) and an
 * Update of the voucher that raises `sessionsRevision`, keeps `sessionsUntil` at the latest expiry
 * and removes the old map entries `prune` names. Each Update holds only while the voucher is as the
 * evaluation read it: the same `sessionsRevision` (no hold came or went), the same
 * `redeemedQuantity` (no use was taken) and, on a gift card, the same balance. So of racing sessions
 * for the last use, one writes and the others re-evaluate (and find it held).
 * @returns false when any voucher changed since it was read, or the write conflicted (nothing is written): evaluate again.
 */
export async function writeSessionHolds(deps: Deps, projectId: string, key: string, holds: readonly SessionHold[]): Promise<boolean> {
  const items = holds.flatMap((h): TransactItem[] => {
    const v = h.voucher;
    const until = v.sessionsUntil !== undefined && v.sessionsUntil > h.reservation.expiresAt ? v.sessionsUntil : h.reservation.expiresAt;
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':zero': 0, ':one': 1, ':rev': v.sessionsRevision ?? 0, ':redeemed': v.redeemedQuantity, ':until': until };
    let condition = '(attribute_not_exists(sessionsRevision) OR sessionsRevision = :rev) AND redeemedQuantity = :redeemed';
    const prune = h.prune.map((old, j) => {
      names[`#e${j}`] = old;
      return `sessions.#e${j}`;
    });
    if (v.gift) {
      values[':balance'] = v.gift.balance;
      condition += ' AND gift.balance = :balance';
    }
    return [
      { Put: { TableName: deps.tableName, Item: voucherSessionHold.toItem({ sessionKey: key, ...h.reservation }, projectId, v.id, key) } },
      {
        Update: {
          TableName: deps.tableName,
          Key: voucherEntity.key(projectId, v.code),
          UpdateExpression: `SET sessionsUntil = :until, sessionsRevision = if_not_exists(sessionsRevision, :zero) + :one${prune.length > 0 ? ` REMOVE ${prune.join(', ')}` : ''}`,
          ConditionExpression: `attribute_exists(PK) AND id = :vid AND ${condition}`,
          ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: { ...values, ':vid': v.id },
        },
      },
    ];
  });
  if (items.length === 0) return true;
  return (await transact(deps, items)).ok;
}
