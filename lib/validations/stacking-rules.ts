import { DEFAULT_SORTING_RULE, type SortingRule } from '../redemptions/stacking-order.js';
import type { RedeemableErrorKey } from './redeemable-error.js';

/*
 * The project's stacking rules (the reference's StackingRules) and the pure decision of which
 * validated redeemables apply: in application order, each is APPLICABLE, INAPPLICABLE (its own
 * validity failed) or SKIPPED (a limit or the exclusivity of categories left it out).
 */

export const APPLICATION_MODES = ['ALL', 'PARTIAL'] as const;
export type ApplicationMode = (typeof APPLICATION_MODES)[number];

export interface StackingRules {
  redeemablesLimit: number;
  applicableRedeemablesLimit: number;
  applicableRedeemablesPerCategoryLimit: number;
  /** Per-category limits by category id, overriding `applicableRedeemablesPerCategoryLimit`. */
  applicableRedeemablesCategoryLimits: Record<string, number>;
  applicableExclusiveRedeemablesLimit: number;
  applicableExclusiveRedeemablesPerCategoryLimit: number;
  exclusiveCategories: string[];
  jointCategories: string[];
  redeemablesApplicationMode: ApplicationMode;
  redeemablesSortingRule: SortingRule;
  redeemablesProductsApplicationMode: 'STACK' | 'ONCE';
  redeemablesNoEffectRule: 'REDEEM_ANYWAY' | 'SKIP';
  noEffectSkipCategories: string[];
  noEffectRedeemAnywayCategories: string[];
  redeemablesRollbackOrderMode: 'WITH_ORDER' | 'WITHOUT_ORDER';
}

/** The reference's defaults; application mode ALL (the reference gives none, the issue says ALL). */
export const DEFAULT_STACKING_RULES: StackingRules = {
  redeemablesLimit: 30,
  applicableRedeemablesLimit: 5,
  applicableRedeemablesPerCategoryLimit: 1,
  applicableRedeemablesCategoryLimits: {},
  applicableExclusiveRedeemablesLimit: 1,
  applicableExclusiveRedeemablesPerCategoryLimit: 1,
  exclusiveCategories: [],
  jointCategories: [],
  redeemablesApplicationMode: 'ALL',
  redeemablesSortingRule: DEFAULT_SORTING_RULE,
  redeemablesProductsApplicationMode: 'STACK',
  redeemablesNoEffectRule: 'REDEEM_ANYWAY',
  noEffectSkipCategories: [],
  noEffectRedeemAnywayCategories: [],
  redeemablesRollbackOrderMode: 'WITH_ORDER',
};

/** The reference's keys of a SKIPPED redeemable. */
export type SkipKey =
  | 'applicable_redeemables_limit_exceeded'
  | 'applicable_exclusive_redeemables_limit_exceeded'
  | 'applicable_redeemables_per_category_limit_exceeded'
  | 'exclusion_rules_not_met'
  | 'preceding_validation_failed';

/** What the rules read of one redeemable, in application order. */
export interface StackingCandidate {
  /** Ids of its categories (the voucher's, else its campaign's). */
  categoryIds: readonly string[];
  /** Its own validity verdict: null = valid. */
  failure: RedeemableErrorKey | null;
}

export type StackingOutcome = { status: 'APPLICABLE' } | { status: 'INAPPLICABLE'; key: RedeemableErrorKey } | { status: 'SKIPPED'; key: SkipKey };

/**
 * Decides each candidate's status, in the order given (the application order):
 * - a candidate whose validity failed is INAPPLICABLE; in ALL mode every candidate after the first
 *   INAPPLICABLE one is SKIPPED `preceding_validation_failed` (PARTIAL goes on);
 * - a candidate in an exclusive category excludes every valid candidate that is in neither an
 *   exclusive nor a joint category (SKIPPED `exclusion_rules_not_met`), wherever it stands;
 * - beyond `applicableExclusiveRedeemablesLimit` exclusive ones: `applicable_exclusive_redeemables_limit_exceeded`;
 * - beyond `applicableRedeemablesLimit` applicable ones: `applicable_redeemables_limit_exceeded`;
 * - beyond a category's limit (`applicableRedeemablesCategoryLimits[id]`, else
 *   `applicableRedeemablesPerCategoryLimit`) for any of its categories: `applicable_redeemables_per_category_limit_exceeded`.
 */
export function decideStacking(candidates: readonly StackingCandidate[], rules: StackingRules): StackingOutcome[] {
  const { exclusive, joint } = categorySetsOf(rules);
  let exclusivePresent = false;
  for (const c of candidates) if (c.failure === null && inAny(c.categoryIds, exclusive)) exclusivePresent = true;
  let failed = false;
  let applicable = 0;
  let exclusiveApplicable = 0;
  const perCategory = new Map<string, number>();
  const outcomes: StackingOutcome[] = [];
  // A loop, not a map with closures: a qualification decides stacking tens of times a request.
  for (const c of candidates) {
    if (failed && rules.redeemablesApplicationMode === 'ALL') {
      outcomes.push(PRECEDING_FAILED);
      continue;
    }
    if (c.failure !== null) {
      failed = true;
      outcomes.push({ status: 'INAPPLICABLE', key: c.failure });
      continue;
    }
    const excl = inAny(c.categoryIds, exclusive);
    const categories = c.categoryIds.length < 2 ? c.categoryIds : [...new Set(c.categoryIds)];
    const excluded = exclusivePresent && !excl && !inAny(categories, joint);
    const skip = skipKeyOf(categories, excl, excluded, applicable, exclusiveApplicable, perCategory, rules);
    if (skip !== null) {
      outcomes.push({ status: 'SKIPPED', key: skip });
      continue;
    }
    applicable += 1;
    if (excl) exclusiveApplicable += 1;
    for (const id of categories) perCategory.set(id, (perCategory.get(id) ?? 0) + 1);
    outcomes.push(APPLICABLE_OUTCOME);
  }
  return outcomes;
}

/** Why a valid candidate is SKIPPED given what was applied before it, or null when it applies. */
function skipKeyOf(
  categories: readonly string[],
  excl: boolean,
  excluded: boolean,
  applicable: number,
  exclusiveApplicable: number,
  perCategory: ReadonlyMap<string, number>,
  rules: StackingRules,
): SkipKey | null {
  if (excluded) return 'exclusion_rules_not_met';
  if (excl && exclusiveApplicable >= rules.applicableExclusiveRedeemablesLimit) return 'applicable_exclusive_redeemables_limit_exceeded';
  if (applicable >= rules.applicableRedeemablesLimit) return 'applicable_redeemables_limit_exceeded';
  for (const id of categories) {
    if ((perCategory.get(id) ?? 0) >= (rules.applicableRedeemablesCategoryLimits[id] ?? rules.applicableRedeemablesPerCategoryLimit))
      return 'applicable_redeemables_per_category_limit_exceeded';
  }
  return null;
}

/** The outcome of every candidate that applies (shared: outcomes are never changed). */
export const APPLICABLE_OUTCOME: StackingOutcome = Object.freeze({ status: 'APPLICABLE' });
const PRECEDING_FAILED: StackingOutcome = Object.freeze({ status: 'SKIPPED', key: 'preceding_validation_failed' });

/**
 * The rules' exclusive and joint categories as sets, made once per rules object: a qualification
 * decides stacking tens of times a request with the same rules.
 */
const categorySets = new WeakMap<StackingRules, { exclusive: ReadonlySet<string>; joint: ReadonlySet<string> }>();
function categorySetsOf(rules: StackingRules): { exclusive: ReadonlySet<string>; joint: ReadonlySet<string> } {
  let sets = categorySets.get(rules);
  if (sets === undefined) {
    sets = { exclusive: new Set(rules.exclusiveCategories), joint: new Set(rules.jointCategories) };
    categorySets.set(rules, sets);
  }
  return sets;
}

function inAny(ids: readonly string[], set: ReadonlySet<string>): boolean {
  if (set.size === 0) return false;
  for (const id of ids) if (set.has(id)) return true;
  return false;
}

/**
 * The validation's `valid`: every redeemable APPLICABLE but for those skipped by limits, and at
 * least one APPLICABLE (ALL); at least one APPLICABLE (PARTIAL, whose INAPPLICABLE ones are left out).
 */
export function isValid(outcomes: readonly StackingOutcome[], mode: ApplicationMode): boolean {
  const anyApplicable = outcomes.some((o) => o.status === 'APPLICABLE');
  if (mode === 'PARTIAL') return anyApplicable;
  return anyApplicable && !outcomes.some((o) => o.status === 'INAPPLICABLE' || (o.status === 'SKIPPED' && o.key === 'preceding_validation_failed'));
}
