import type { Reward, RewardAssignment } from '../rewards/reward.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { CardPlan } from './loyalty-card.js';

/** Points a reward redemption took, by the expiry of the bucket they came from (null: never expires). */
export interface SpentPoints {
  expiresAt: string | null;
  points: number;
}

/** What a reward redemption gave, kept on its redemption record (lib/redemptions/redemption.ts `reward`). */
export interface RewardGiven {
  /** The reward as it was when redeemed. */
  reward: Reward;
  assignmentId: string;
  /** Points paid. */
  points: number;
  /** Where the points came from, so a rollback gives them back with their expiry. */
  spent: SpentPoints[];
  /** The voucher a CAMPAIGN reward gave (published to the member), once delivered; null otherwise. */
  voucher: Voucher | null;
}

/** The points a redemption of `assignment` costs: its price (a COIN reward is priced by the order, not the assignment). */
export const rewardPrice = (assignment: RewardAssignment): number => assignment.points;

/**
 * Where the points of a spend plan came from: each bucket's points taken (buckets expired by the
 * same plan gave nothing), merged by expiry date, and the rest from the card's bucket-less points
 * (which never expire), soonest expiry first.
 */
export function spentPointsOf(plan: CardPlan, points: number): SpentPoints[] {
  const byDate = new Map<string | null, number>();
  let fromBuckets = 0;
  for (const u of plan.updates) {
    if (u.status === 'EXPIRED') continue;
    const taken = u.bucket.points - u.points;
    if (taken <= 0) continue;
    fromBuckets += taken;
    byDate.set(u.bucket.expiresAt, (byDate.get(u.bucket.expiresAt) ?? 0) + taken);
  }
  const rest = points - fromBuckets;
  if (rest > 0) byDate.set(null, (byDate.get(null) ?? 0) + rest);
  return [...byDate.entries()]
    .map(([expiresAt, p]) => ({ expiresAt, points: p }))
    .sort((a, b) => (a.expiresAt ?? '9999-12-31').localeCompare(b.expiresAt ?? '9999-12-31'));
}

/**
 * What a rollback gives back of `spent` on `today`: the points whose expiry has not passed (points
 * that would have expired meanwhile stay gone, as they would had they not been spent).
 */
export const refundablePoints = (spent: readonly SpentPoints[], today: string): SpentPoints[] =>
  spent.filter((s) => s.points > 0 && (s.expiresAt === null || s.expiresAt >= today));

/** Whether a reward with a stock has none left. */
export const outOfStock = (reward: Reward): boolean => reward.stock !== null && (reward.redeemed ?? 0) >= reward.stock;

/**
 * What a pay-with-points (COIN) reward takes and gives on an order of `orderAmount` (minor units):
 * `exchangeRatio` currency units (×100 minor units) per `pointsRatio` points. At most `requested`
 * points are spent (else at most `available`); the discount is what they are worth, rounded down, at
 * most the order's amount; and only the points that discount needs are taken (the fewest whose worth
 * covers it), so points named beyond what the order absorbs stay on the card (issue 41 item 1).
 * Pure: the caller refuses `requested` above the card's balance, exactly, in its transaction.
 */
export function coinPayment(
  coin: { exchangeRatio: number; pointsRatio: number },
  orderAmount: number,
  requested: number | undefined,
  available: number,
): { points: number; discount: number } {
  // Minor units per point; the epsilons keep a ratio like 0.07 (7.000000000000001 × …) on the right side of floor and ceil.
  const perPoint = (coin.exchangeRatio * 100) / coin.pointsRatio;
  const cap = Math.max(requested ?? available, 0);
  const discount = Math.max(Math.min(orderAmount, Math.floor(cap * perPoint + 1e-9)), 0);
  const points = Math.min(cap, Math.ceil(discount / perPoint - 1e-9));
  return { points, discount };
}
