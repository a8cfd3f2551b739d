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

/** What one sweep did; also its last progress log line. */
export interface ExpirySweepReport {
  /** The day the sweep ran for: buckets whose last day was before it were written off. */
  today: string;
  /** Index entries read (a bucket another sweep wrote off meanwhile counts here, not below). */
  found: number;
  /** Buckets written off by this sweep, one transaction each. */
  writtenOff: number;
  /** Points they held. */
  points: number;
  /** Entries left: already written off or spent by another writer, or of another project when the sweep is limited to one. */
  skipped: number;
  /** Buckets whose card is gone: emptied without a card transaction. */
  orphans: number;
}

export const emptyReport = (today: string): ExpirySweepReport => ({ today, found: 0, writtenOff: 0, points: 0, skipped: 0, orphans: 0 });
