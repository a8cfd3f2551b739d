import { pendingPoints } from '../../lib/db/entities.js';
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

/** Stores a pending entry alone (no order earning, no card counter): for tests that only need one to exist. */
export async function seedPendingEntry(runtime: Pick<Runtime, 'ddb' | 'tableName'>, entry: PendingPoints): Promise<PendingPoints> {
  const outcome = await transact(runtime, [pendingPoints.putIfAbsent(runtime, entry)]);
  if (!outcome.ok) throw new Error(`Could not seed pending points ${entry.id}`);
  return entry;
}
