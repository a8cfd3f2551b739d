import type { PointsChange } from './loyalty-card.js';
import type { TierRule } from './tier-period.js';

/** How a tier changes the points of an earning rule or the price of a reward (the reference's MappingPoints). */
export type TierMapping = { type: 'MULTIPLY'; multiplier: number } | { type: 'CUSTOM'; points: number };

/** A loyalty tier of a program: members whose balance is in `points` (both ends included; `to` null = no top) belong to it. */
export interface LoyaltyTier {
  id: string;
  campaignId: string;
  name: string;
  points: { from: number; to: number | null };
  /** By earning rule id: what a member of the tier earns by that rule instead of the rule's points. */
  earningRules: Record<string, TierMapping>;
  /** By reward id (or reward assignment id): what the reward costs a member of the tier instead of the assignment's price. */
  rewards: Record<string, TierMapping>;
  metadata: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string | null;
}

/** Every tier of one program, in one item (a program's tiers are few, and each points change reads them with one GetItem). */
export interface LoyaltyTierSet {
  projectId: string;
  campaignId: string;
  tiers: LoyaltyTier[];
  /** Raised by every write: the optimistic lock of create-in-bulk. */
  revision: number;
  /** The program's `loyalty_tiers_expiration`, compiled (lib/loyalties/tier-period.ts tierRuleOf), kept here so a points change reads it with the tiers; absent = BALANCE. */
  expiration?: TierRule | null;
}

type Range = Pick<LoyaltyTier, 'points'>;

const contains = (t: Range, points: number): boolean => t.points.from <= points && (t.points.to === null || points <= t.points.to);

/**
 * The tier whose points range holds `points`, or null when none does (points below every tier, or
 * in a gap between ranges). Ranges of one program never overlap (checked on create), so at most one
 * holds; should stored ranges overlap anyway, the one with the highest `from` wins.
 */
export function tierFor<T extends Range>(points: number, tiers: readonly T[]): T | null {
  let found: T | null = null;
  for (const t of tiers) {
    if (contains(t, points) && (found === null || t.points.from > found.points.from)) found = t;
  }
  return found;
}

/** Whether two ranges share a point. */
export const rangesOverlap = (a: Range['points'], b: Range['points']): boolean =>
  a.from <= (b.to ?? Number.POSITIVE_INFINITY) && b.from <= (a.to ?? Number.POSITIVE_INFINITY);

/** Points after a mapping: MULTIPLY rounds down (points are integers), CUSTOM replaces them; never below zero. */
export function mappedPoints(points: number, mapping: TierMapping | undefined): number {
  if (!mapping) return points;
  if (mapping.type === 'CUSTOM') return Math.max(0, mapping.points);
  return Math.max(0, Math.floor(points * mapping.multiplier));
}

/** What a member of `tier` earns by `ruleId` when the rule gives `points`. */
export const earnedPoints = (points: number, tier: LoyaltyTier | null, ruleId: string): number =>
  tier ? mappedPoints(points, tier.earningRules[ruleId]) : points;

/** What a reward priced `points` costs a member of `tier`: a mapping by reward id, else by assignment id. */
export const tierRewardPrice = (points: number, tier: LoyaltyTier | null, rewardId: string, assignmentId?: string): number =>
  tier ? mappedPoints(points, tier.rewards[rewardId] ?? (assignmentId !== undefined ? tier.rewards[assignmentId] : undefined)) : points;

/**
 * A rule's `loyalty` as a member of a tier earns it (list-loyalty-tier-earning-rules): no mapping
 * keeps it; CUSTOM makes it FIXED at the mapped points; MULTIPLY scales a FIXED rule's points, or
 * each `points` of a PROPORTIONAL ratio (rounded down; the earning itself multiplies the total).
 */
export function tierRuleLoyalty<L extends { type: string }>(loyalty: L, mapping: TierMapping | undefined): L | { type: 'FIXED'; points: number } {
  if (!mapping) return loyalty;
  if (mapping.type === 'CUSTOM') return { type: 'FIXED', points: mapping.points };
  return scalePoints(loyalty, mapping) as L;
}

function scalePoints(value: unknown, mapping: TierMapping): unknown {
  if (Array.isArray(value)) return value.map((v) => scalePoints(v, mapping));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === 'points' && typeof v === 'number' ? mappedPoints(v, mapping) : scalePoints(v, mapping);
  return out;
}

/** A points change as `tier` reshapes it: earned buckets (those naming their rule) mapped by the tier's rule mappings, a reward's price by its reward mappings. */
export function tieredChange(change: PointsChange, tier: LoyaltyTier | null): PointsChange {
  if (!tier) return change;
  if (change.kind === 'add') {
    return {
      ...change,
      buckets: change.buckets.map((b) => (b.earningRuleId === undefined ? b : { ...b, points: earnedPoints(b.points, tier, b.earningRuleId) })),
    };
  }
  if (change.kind === 'spend' && change.reward)
    return { ...change, points: tierRewardPrice(change.points, tier, change.reward.id, change.reward.assignmentId) };
  return change;
}
