/**
 * The rollback's write (POST /v1/redemptions/{id}/rollback, and a reward redemption undone when its reward cannot be
 * delivered). Apart from redemption.repo.ts because the redemption doors load the reward path as a lazy chunk
 * (docs/decisions.md "Lazy chunks on the redemption doors"): esbuild places a whole module in one chunk, so this
 * write, kept in the module the doors' commit is in, loaded at every cold start of theirs.
 */
import { order as orderEntity, redemption as redemptionEntity, voucher as voucherEntity } from '../db/entities.js';
import { transactionOversize } from '../db/item-size.js';
import { MAX_TRANSACTION_ITEMS, type TransactItem, transact } from '../db/transact.js';
import { InvalidPayloadError } from '../errors.js';
import type { Order } from '../orders/order.js';
import { listEntryPut } from '../orders/order.repo.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { EXACT_CAMPAIGN_SHARD } from '../validations/redeemable-rules.js';
import { redemptionSummaryDeltas } from '../campaigns/campaign-summary.js';
import { summaryCounterUpdates } from '../campaigns/campaign-summary.repo.js';
import { pickShard, type Redemption } from './redemption.js';
import { campaignShard, campaignShardAdd, countsOf, customerCountAdds, customerSummaryAdd, type SummaryDelta, shardAdd } from './redemption.repo.js';

type Reads = Pick<Runtime, 'ddb' | 'tableName'>;

/** What one rollback writes: the redemptions undone (children; with the parent for a stacked rollback) and the records. */
export interface RollbackWrite {
  /** The children undone, each with its rollback record. */
  undo: { child: Redemption; record: Redemption }[];
  /** The parent and its rollback record, for a stacked rollback. */
  parent: { parent: Redemption; record: Redemption } | null;
  /** The order as stored, when the rollback records itself in its `redemptions` map. */
  order: Order | null;
  date: string;
  /** The voucher give-backs to leave out (the voucher is gone). */
  skipVouchers: Set<string>;
  /** More writes of the same rollback (a reward redemption's points refund); a failed condition among them means: read again and retry. */
  extra?: TransactItem[];
}

const markRolledBack = (deps: Reads, r: Redemption, rollbackId: string): TransactItem => ({
  Update: {
    TableName: deps.tableName,
    Key: redemptionEntity.key(r.projectId, r.id),
    UpdateExpression: 'SET #status = :rolled, rollbackId = :rb',
    ConditionExpression: '#status = :succeeded',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':rolled': 'ROLLED_BACK', ':rb': rollbackId, ':succeeded': 'SUCCEEDED' },
  },
});

/** The Update that gives a child's use and credits back to its voucher item (only while it is the same voucher). */
function giveBack(deps: Reads, c: Redemption): TransactItem | null {
  const v = c.voucher;
  if (!v) return null;
  const sets: string[] = [];
  const values: Record<string, unknown> = { ':vid': v.id };
  if (c.counter.kind === 'limit') {
    sets.push('redeemedQuantity = redeemedQuantity - :one');
    values[':one'] = 1;
  }
  if (c.giftCredits > 0) {
    sets.push('gift.balance = gift.balance + :credits', 'gift.subtractedAmount = gift.subtractedAmount - :credits');
    values[':credits'] = c.giftCredits;
  }
  if (sets.length === 0) return null;
  return {
    Update: {
      TableName: deps.tableName,
      Key: voucherEntity.key(c.projectId, v.code),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'id = :vid',
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Writes a rollback in one transaction: each child marked ROLLED_BACK on condition that it is still
 * SUCCEEDED (so of concurrent rollbacks one wins), its use given back (limited counter −1, or −1 on
 * a random count shard) and its gift credits returned, the rollback records put, the parent marked
 * (stacked), and the order's `redemptions` entry given the rollback (on the revision read).
 * @returns 'ok'; 'rolled_back' when a redemption was rolled back meanwhile; 'voucher_gone' with the
 *   voucher ids whose give-back failed (deleted: call again without them); 'conflict' to retry.
 */
export async function writeRollback(
  deps: Reads,
  w: RollbackWrite,
  random: () => number = Math.random,
): Promise<{ outcome: 'ok' | 'rolled_back' | 'conflict' } | { outcome: 'voucher_gone'; voucherIds: string[] }> {
  const items: TransactItem[] = [];
  const voucherAt = new Map<number, string>();
  const markAt = new Set<number>();
  for (const { child, record } of w.undo) {
    markAt.add(items.length);
    items.push(markRolledBack(deps, child, record.id));
    const back = child.voucher && !w.skipVouchers.has(child.voucher.id) ? giveBack(deps, child) : null;
    if (back) {
      voucherAt.set(items.length, (child.voucher as Voucher).id);
      items.push(back);
    }
    if (child.counter.kind === 'shard' && child.voucher) items.push(shardAdd(deps, child.projectId, child.voucher.id, pickShard(random), -1));
    items.push(redemptionEntity.putIfAbsent(deps, record));
  }
  const byCustomer = new Map<string, { delta: SummaryDelta; counts: Record<string, number> }>();
  for (const { child } of w.undo) {
    if (child.customerId === null) continue;
    const seen = byCustomer.get(child.customerId) ?? { delta: { rolledBack: 0, rollbackSucceeded: 0, giftRedeemedAmount: 0 }, counts: {} };
    const d = seen.delta;
    for (const [id, n] of Object.entries(countsOf([{ objectId: child.voucher?.id ?? child.promotionTierId, campaignId: child.campaignId }], -1))) {
      seen.counts[id] = (seen.counts[id] ?? 0) + n;
    }
    seen.delta = {
      rolledBack: (d.rolledBack ?? 0) + 1,
      rollbackSucceeded: (d.rollbackSucceeded ?? 0) + 1,
      giftRedeemedAmount: (d.giftRedeemedAmount ?? 0) - child.giftCredits,
    };
    byCustomer.set(child.customerId, seen);
  }
  const summaries = redemptionSummaryDeltas(
    'rollback',
    w.undo.map(({ child }) => ({
      campaignId: child.campaignId,
      giftCredits: child.giftCredits,
      loyaltyPoints: child.loyaltyPoints,
      discount: child.amount,
      orderAmount: child.order?.calculation.amount ?? 0,
    })),
  );
  for (const [campaignId, delta] of summaries) {
    const projectId = w.undo[0]?.child.projectId as string;
    // Given back where it was counted: a count a rule bounds is on the exact shard, and must come off it to free a place.
    const exact = w.undo.some(({ child }) => child.campaignId === campaignId && child.campaignCounter === 'exact');
    items.push(campaignShardAdd(deps, projectId, campaignId, exact ? EXACT_CAMPAIGN_SHARD : campaignShard(random), -1));
    items.push(...summaryCounterUpdates(deps, projectId, campaignId, w.date, delta, random));
  }
  const projectOf = w.undo[0]?.child.projectId;
  if (projectOf !== undefined)
    for (const [customerId, { delta, counts }] of byCustomer)
      items.push(customerSummaryAdd(deps, projectOf, customerId, delta), ...customerCountAdds(deps, projectOf, customerId, counts));
  if (w.parent) {
    markAt.add(items.length);
    items.push(markRolledBack(deps, w.parent.parent, w.parent.record.id));
    items.push(redemptionEntity.putIfAbsent(deps, w.parent.record));
  }
  let orderAt = -1;
  if (w.order) {
    const parentId = w.parent?.parent.id as string;
    const entry = w.order.redemptions?.[parentId];
    if (entry) {
      const next: Order = {
        ...w.order,
        updatedAt: w.date,
        revision: w.order.revision + 1,
        redemptions: { ...w.order.redemptions, [parentId]: { ...entry, rollbackId: w.parent?.record.id ?? null, rollbackDate: w.date } },
      };
      orderAt = items.length;
      items.push({
        Put: {
          TableName: deps.tableName,
          Item: orderEntity.toItem(next),
          ConditionExpression: 'revision = :rev',
          ExpressionAttributeValues: { ':rev': w.order.revision },
        },
      });
      items.push(listEntryPut(deps, next));
    }
  }
  const extraAt = items.length;
  items.push(...(w.extra ?? []));
  if (items.length > MAX_TRANSACTION_ITEMS)
    throw new InvalidPayloadError(`This rollback needs ${items.length} writes; one transaction holds ${MAX_TRANSACTION_ITEMS}`);
  const oversize = transactionOversize(items);
  if (oversize) throw new InvalidPayloadError(`This rollback cannot be stored: ${oversize}`);
  const outcome = await transact(deps, items);
  if (outcome.ok) return { outcome: 'ok' };
  if (!('failed' in outcome)) return { outcome: 'conflict' };
  if (outcome.failed.some((i) => markAt.has(i))) return { outcome: 'rolled_back' };
  if (outcome.failed.some((i) => i >= extraAt)) return { outcome: 'conflict' };
  const gone = outcome.failed.flatMap((i) => voucherAt.get(i) ?? []);
  if (gone.length > 0) return { outcome: 'voucher_gone', voucherIds: gone };
  if (outcome.failed.includes(orderAt)) return { outcome: 'conflict' };
  throw new Error('A rollback record id is already taken');
}
