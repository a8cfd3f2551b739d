import type { BucketUpdate } from './loyalty-card.js';

/*
 * The pure part of a points transfer: which expiry dates the points taken from a source card carry
 * to the target. I/O lives in points-transfer.service.ts.
 */

/** Points taken from a source card with one expiry date (null: never expires). */
export interface TakenPoints {
  expiresAt: string | null;
  points: number;
}

/**
 * What a spend of `points` took, by expiry date, soonest first: each spent bucket's points less
 * what it still holds (the planner's `updates`; buckets it expired on the way are not spent), and
 * the rest from the card's bucket-less points, which never expire.
 * @throws Error when the updates took more than `points` (a planner bug).
 */
export function takenByExpiry(points: number, updates: readonly BucketUpdate[]): TakenPoints[] {
  const byDate = new Map<string | null, number>();
  let fromBuckets = 0;
  for (const u of updates) {
    if (u.status === 'EXPIRED') continue;
    const taken = u.bucket.points - u.points;
    if (taken <= 0) continue;
    fromBuckets += taken;
    byDate.set(u.bucket.expiresAt, (byDate.get(u.bucket.expiresAt) ?? 0) + taken);
  }
  if (fromBuckets > points) throw new Error(`A spend of ${points} points took ${fromBuckets} from buckets`);
  if (fromBuckets < points) byDate.set(null, (byDate.get(null) ?? 0) + points - fromBuckets);
  const key = (d: string | null): string => d ?? '9999-12-31';
  return [...byDate.entries()].map(([expiresAt, p]) => ({ expiresAt, points: p })).sort((a, b) => (key(a.expiresAt) < key(b.expiresAt) ? -1 : 1));
}

/** Merges what several sources gave into one list by expiry date, soonest first: the target's new buckets, one per date. */
export function mergeTaken(lists: readonly TakenPoints[][]): TakenPoints[] {
  const byDate = new Map<string | null, number>();
  for (const t of lists.flat()) byDate.set(t.expiresAt, (byDate.get(t.expiresAt) ?? 0) + t.points);
  const key = (d: string | null): string => d ?? '9999-12-31';
  return [...byDate.entries()].map(([expiresAt, points]) => ({ expiresAt, points })).sort((a, b) => (key(a.expiresAt) < key(b.expiresAt) ? -1 : 1));
}
