import type { TransactItem } from '../db/transact.js';
import { NotFoundError } from '../errors.js';
import type { Redemption } from '../redemptions/redemption.js';
import type { Runtime } from '../runtime.js';
import type { CardTransaction } from './card-transaction.js';
import { putCardTransactionItem } from './card-transaction.repo.js';
import { todayOf } from './expiration.js';
import { prepareCardChange } from './loyalty.service.js';
import { newBucket } from './points-bucket.js';
import { refundablePoints } from './reward-redemption.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * The writes that give a rolled-back reward redemption's points back to its loyalty card, for the
 * rollback's transaction: the card and a new bucket per expiry date the points came from (points
 * whose expiry has passed since stay gone), and a POINTS_REFUND card transaction. Empty when the
 * redemption paid no points or its card is gone; null when the card's bucket index lags (retry).
 */
export async function rewardRefundItems(deps: Deps, r: Redemption, now: Date): Promise<TransactItem[] | null> {
  const card = r.voucher;
  if (!r.reward || r.loyaltyPoints <= 0 || !card?.loyaltyCard || card.campaignId === null) return [];
  const back = refundablePoints(r.reward.spent, todayOf(now));
  const points = back.reduce((sum, s) => sum + s.points, 0);
  if (points === 0) return [];
  const date = now.toISOString();
  const buckets = back.map((s) => newBucket(deps, card, s.points, s.expiresAt, date));
  let prepared: Awaited<ReturnType<typeof prepareCardChange>>;
  try {
    prepared = await prepareCardChange(deps, r.projectId, card.code, { kind: 'add', buckets }, now);
  } catch (error) {
    if (error instanceof NotFoundError) return [];
    throw error;
  }
  if (!prepared) return null;
  if (prepared.voucher.id !== card.id) return [];
  const record: CardTransaction = {
    id: deps.ids.id('vtx'),
    projectId: r.projectId,
    campaignId: card.campaignId,
    voucherId: card.id,
    type: 'POINTS_REFUND',
    source: 'API',
    sourceId: null,
    reason: null,
    points,
    total: prepared.plan.card.points,
    balance: prepared.plan.card.balance,
    createdAt: date,
  };
  return [...prepared.items, putCardTransactionItem(deps, record)];
}
