import type { LoyaltyCard } from '../vouchers/voucher.js';
import type { PointsBucket } from './points-bucket.js';
import { expiresKeyOf } from './points-bucket.js';

/** What a card holds at one moment: its counters and every bucket it ever had (any status). */
export interface CardState {
  card: LoyaltyCard;
  buckets: PointsBucket[];
}

/**
 * A points change to plan: add a bucket, or spend from the card (from the buckets `first` names
 * before the soonest-expiring others: a take-back removes the points an order added).
 * `pending`: points added to (or, negative, removed from) the card's pending points with it.
 */
export type PointsChange = (
  | { kind: 'add'; buckets: PointsBucket[] }
  /** `reward`: the points are a reward's price, which the card's tier may change (lib/loyalties/tier.ts). */
  | { kind: 'spend'; points: number; first?: readonly string[]; reward?: { id: string; assignmentId?: string } }
  | { kind: 'none' }
) & {
  pending?: number;
};

/** A bucket's new points and status (its keys do not change: the expiry never does). */
export interface BucketUpdate {
  bucket: PointsBucket;
  points: number;
  status: PointsBucket['status'];
}

/** The writes of one points change: the card's new counters, changed buckets, new buckets. */
export interface CardPlan {
  card: LoyaltyCard;
  updates: BucketUpdate[];
  inserts: PointsBucket[];
  /** Points the card held before the change that are now expired (moved to `expiredPoints`). */
  expired: number;
}

/** The planner's refusal; the service turns it into the client's NotEnoughPointsError. */
export class InsufficientPointsError extends Error {
  override readonly name = 'InsufficientPointsError';

  constructor(readonly available: number) {
    super(`Only ${available} points are available`);
  }
}

const isExpired = (b: PointsBucket, today: string): boolean => b.expiresAt !== null && b.expiresAt < today;
const bySpendOrder = (a: PointsBucket, b: PointsBucket): number => {
  const ka = `${expiresKeyOf(a.expiresAt)}#${a.id}`;
  const kb = `${expiresKeyOf(b.expiresAt)}#${b.id}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/** Points in ACTIVE buckets, expired or not: what `card.bucketedPoints` must equal for a complete read. */
export const activeBucketPoints = (buckets: PointsBucket[]): number => buckets.reduce((sum, b) => (b.status === 'ACTIVE' ? sum + b.points : sum), 0);

/**
 * Plans a points change on a card. ACTIVE buckets whose expiry is before `today` are expired in
 * the same plan (their points leave `balance` for `expiredPoints`), at most `maxExpiries` of them
 * (the rest stay for a later plan). Spending takes from the soonest-expiring unexpired buckets
 * first (after the buckets a spend names `first`), then from the card's bucket-less points (which never expire). `nextExpiration*` is
 * recomputed from the buckets left.
 * @throws InsufficientPointsError when a spend exceeds the unexpired balance.
 */
export function planChange(state: CardState, change: PointsChange, today: string, maxExpiries = Number.POSITIVE_INFINITY): CardPlan {
  const card: LoyaltyCard = { ...state.card, bucketedPoints: state.card.bucketedPoints ?? 0, revision: (state.card.revision ?? 0) + 1 };
  const live = new Map<string, { bucket: PointsBucket; points: number }>();
  const updates: BucketUpdate[] = [];
  let expired = 0;
  let expiries = 0;
  for (const b of [...state.buckets].sort(bySpendOrder)) {
    if (b.status !== 'ACTIVE' || b.points <= 0) continue;
    if (isExpired(b, today)) {
      if (expiries >= maxExpiries) continue;
      expiries += 1;
      expired += b.points;
      updates.push({ bucket: b, points: b.points, status: 'EXPIRED' });
      continue;
    }
    live.set(b.id, { bucket: b, points: b.points });
  }
  card.balance -= expired;
  card.expiredPoints += expired;
  card.bucketedPoints = (card.bucketedPoints ?? 0) - expired;
  const inserts: PointsBucket[] = [];
  if (change.kind === 'add') {
    for (const b of change.buckets) {
      inserts.push(b);
      card.points += b.points;
      card.balance += b.points;
      card.bucketedPoints = (card.bucketedPoints ?? 0) + b.points;
      if (!isExpired(b, today)) live.set(b.id, { bucket: b, points: b.points });
    }
  } else if (change.kind === 'spend') {
    // Expired buckets not yet moved (beyond maxExpiries) are not spendable either.
    const unmovedExpired = state.buckets.filter((b) => b.status === 'ACTIVE' && isExpired(b, today) && !updates.some((u) => u.bucket.id === b.id));
    const available = card.balance - unmovedExpired.reduce((s, b) => s + b.points, 0);
    if (change.points > available) throw new InsufficientPointsError(Math.max(available, 0));
    let left = change.points;
    const first = new Set(change.first ?? []);
    const order = [...live.values()].sort((a, b) => Number(first.has(b.bucket.id)) - Number(first.has(a.bucket.id)));
    for (const entry of order) {
      if (left === 0) break;
      const take = Math.min(left, entry.points);
      entry.points -= take;
      left -= take;
      updates.push({ bucket: entry.bucket, points: entry.points, status: entry.points === 0 ? 'USED' : 'ACTIVE' });
      card.bucketedPoints = (card.bucketedPoints ?? 0) - take;
    }
    card.balance -= change.points;
    card.subtractedPoints += change.points;
  }
  if (change.pending !== undefined) card.pendingPoints += change.pending;
  let nextDate: string | null = null;
  let nextPoints = 0;
  for (const { bucket, points } of live.values()) {
    if (points <= 0 || bucket.expiresAt === null) continue;
    if (nextDate === null || bucket.expiresAt < nextDate) {
      nextDate = bucket.expiresAt;
      nextPoints = points;
    } else if (bucket.expiresAt === nextDate) nextPoints += points;
  }
  card.nextExpirationDate = nextDate;
  card.nextExpirationPoints = nextDate === null ? null : nextPoints;
  return { card, updates, inserts, expired };
}
