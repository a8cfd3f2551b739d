import { orderEarning, pendingPoints, voucher } from '../../lib/db/entities.js';
import { transact } from '../../lib/db/transact.js';
import type { PendingPoints } from '../../lib/loyalties/pending-points.js';
import type { Runtime } from '../../lib/runtime.js';

/** A PENDING entry of a card, as the earning would write it (order and rule ids made up unless given). */
export function pendingEntry(
  card: { projectId: string; voucherId: string; code: string; campaignId: string },
  fields: Partial<PendingPoints> = {},
): PendingPoints {
  const at = '2026-02-10T12:00:00.000Z';
  return {
    id: `lopp_${Math.random().toString(36).slice(2, 12)}`,
    ...card,
    customerId: 'cust_seeded',
    orderId: 'ord_seeded',
    ruleId: 'ern_seeded',
    points: 10,
    activatesAt: '2026-02-11',
    status: 'PENDING',
    details: {
      event: { id: 'evcus_seeded', type: 'customer.order.paid', entityId: 'cust_seeded', createdAt: at },
      earningRule: { id: 'ern_seeded', source: { banner: '' } },
      order: { id: 'ord_seeded', sourceId: null },
    },
    expirationRules: null,
    bucketId: `lopb_${Math.random().toString(36).slice(2, 12)}`,
    transactionId: `vtx_${Math.random().toString(36).slice(2, 12)}`,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

/**
 * Stores a pending entry as the earning would: the entry, its order earning (PENDING) and the card's
 * `pending_points` raised (its revision moved), without a real order.
 */
export async function seedPendingEntry(runtime: Pick<Runtime, 'ddb' | 'tableName'>, entry: PendingPoints): Promise<PendingPoints> {
  const outcome = await transact(runtime, [
    pendingPoints.putIfAbsent(runtime, entry),
    orderEarning.putIfAbsent(runtime, {
      projectId: entry.projectId,
      orderId: entry.orderId,
      voucherId: entry.voucherId,
      code: entry.code,
      campaignId: entry.campaignId,
      ruleId: entry.ruleId,
      banner: '',
      points: entry.points,
      bucketId: entry.bucketId,
      transactionId: entry.transactionId,
      status: 'PENDING',
      takenBackPoints: null,
      takeBackTransactionId: null,
      pendingPointsId: entry.id,
      createdAt: entry.createdAt,
      updatedAt: entry.updatedAt,
    }),
    {
      Update: {
        TableName: runtime.tableName,
        Key: voucher.key(entry.projectId, entry.code),
        UpdateExpression:
          'SET loyaltyCard.pendingPoints = loyaltyCard.pendingPoints + :p, loyaltyCard.revision = if_not_exists(loyaltyCard.revision, :zero) + :one',
        ConditionExpression: 'id = :id',
        ExpressionAttributeValues: { ':p': entry.points, ':zero': 0, ':one': 1, ':id': entry.voucherId },
      },
    },
  ]);
  if (!outcome.ok) throw new Error(`Could not seed pending points ${entry.id}`);
  return entry;
}
