import type { LoyaltyCard } from '../vouchers/voucher.js';
import type { CardTransaction } from './card-transaction.js';
import { type CardPlan, planChange } from './loyalty-card.js';
import type { PointsBucket } from './points-bucket.js';

/*
 * The expiry worker's pure part: what writing off one expired bucket does to its card. I/O lives
 * in points-expiry.repo.ts (the index, the transaction) and points-expiry.job.ts (the sweep).
 */

/** Whether a bucket's points are gone on `today` (its last day was before). */
export const isPastDue = (b: Pick<PointsBucket, 'expiresAt'>, today: string): boolean => b.expiresAt !== null && b.expiresAt < today;

/**
 * The plan that writes off `bucket` alone: its points leave the card's `balance` (and
 * `bucketedPoints`) for `expiredPoints`, the bucket becomes EXPIRED with its points kept as the
 * amount that expired, and `nextExpiration*` is recomputed from `others` (the card's other buckets;
 * past-due ones among them do not count, as on every read). Empty `others` means the card holds
 * no other bucketed points.
 * @throws Error when the bucket is not past due or holds nothing (the caller filters those out).
 */
export function planWriteOff(card: LoyaltyCard, bucket: PointsBucket, others: readonly PointsBucket[], today: string): CardPlan {
  if (!isPastDue(bucket, today) || bucket.status !== 'ACTIVE' || bucket.points <= 0) throw new Error(`Bucket ${bucket.id} is not due for a write-off`);
  const rest = others.filter((b) => b.id !== bucket.id && !isPastDue(b, today));
  const plan = planChange({ card, buckets: [bucket, ...rest] }, { kind: 'none' }, today);
  if (plan.updates.length !== 1 || plan.expired !== bucket.points)
    throw new Error(`Write-off of bucket ${bucket.id} planned ${plan.updates.length} bucket changes`);
  return plan;
}

/** The POINTS_EXPIRATION card transaction of a write-off: the bucket's points, negative, and the card's counters after it. */
export function expirationTransaction(id: string, bucket: PointsBucket, card: LoyaltyCard, now: string): CardTransaction {
  return {
    id,
    projectId: bucket.projectId,
    campaignId: bucket.campaignId,
    voucherId: bucket.voucherId,
    type: 'POINTS_EXPIRATION',
    source: null,
    sourceId: null,
    reason: null,
    points: -bucket.points,
    total: card.points,
    balance: card.balance,
    createdAt: now,
  };
}

/** Buckets written off in one transaction: the card, then per bucket its update and its card transaction (1 + 2 × 49 = 99 items). */
export const MAX_WRITE_OFFS_PER_COMMIT = 49;

/** Several write-offs of one card as one change: the card's state after the last, every bucket's update, and a POINTS_EXPIRATION per bucket. */
export interface CardWriteOff {
  plan: CardPlan;
  records: CardTransaction[];
}

/**
 * Writes off `due` (past-due buckets of one card, in order) one after the other in memory, as
 * planWriteOff would one transaction at a time: each POINTS_EXPIRATION carries the card's counters
 * after its own bucket, and the plan holds the card after the last with every bucket's update.
 * `others`: the card's other buckets, as for planWriteOff. `newId` names each card transaction (the
 * ids are given out sorted, so the history lists them in write-off order).
 */
export function planCardWriteOff(
  card: LoyaltyCard,
  due: readonly PointsBucket[],
  others: readonly PointsBucket[],
  today: string,
  date: string,
  newId: () => string,
): CardWriteOff {
  let after = card;
  let rest = others;
  const updates: CardPlan['updates'] = [];
  const records: CardTransaction[] = [];
  let expired = 0;
  // A card's history lists transactions of one instant by id: ids handed out in ascending order keep it in write-off order.
  const ids = due.map(() => newId()).sort();
  for (const [i, bucket] of due.entries()) {
    const plan = planWriteOff(after, bucket, rest, today);
    updates.push(...plan.updates);
    records.push(expirationTransaction(ids[i] as string, bucket, plan.card, date));
    expired += plan.expired;
    after = plan.card;
    rest = rest.filter((b) => b.id !== bucket.id);
  }
  return { plan: { card: after, updates, inserts: [], expired }, records };
}

/** What one sweep did; also its last progress log line. */
export interface ExpirySweepReport {
  /** The day the sweep ran for: buckets whose last day was before it were written off. */
  today: string;
  /** Index entries read (a bucket another sweep wrote off meanwhile counts here, not below). */
  found: number;
  /** Buckets written off by this sweep (a card's due buckets in one transaction, up to MAX_WRITE_OFFS_PER_COMMIT). */
  writtenOff: number;
  /** Points they held. */
  points: number;
  /** Entries left: already written off or spent by another writer, or of another project when the sweep is limited to one. */
  skipped: number;
  /** Buckets whose card is gone: emptied without a card transaction. */
  orphans: number;
}

export const emptyReport = (today: string): ExpirySweepReport => ({ today, found: 0, writtenOff: 0, points: 0, skipped: 0, orphans: 0 });
