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
  const exclusive = new Set(rules.exclusiveCategories);
  const joint = new Set(rules.jointCategories);
  const isExclusive = (c: StackingCandidate) => c.categoryIds.some((id) => exclusive.has(id));
  const isJoint = (c: StackingCandidate) => c.categoryIds.some((id) => joint.has(id));
  const exclusivePresent = candidates.some((c) => c.failure === null && isExclusive(c));
  let failed = false;
  let applicable = 0;
  let exclusiveApplicable = 0;
  const perCategory = new Map<string, number>();
  return candidates.map((c): StackingOutcome => {
    if (failed && rules.redeemablesApplicationMode === 'ALL') return { status: 'SKIPPED', key: 'preceding_validation_failed' };
    if (c.failure !== null) {
      failed = true;
      return { status: 'INAPPLICABLE', key: c.failure };
    }
    const excl = isExclusive(c);
    if (exclusivePresent && !excl && !isJoint(c)) return { status: 'SKIPPED', key: 'exclusion_rules_not_met' };
    if (excl && exclusiveApplicable >= rules.applicableExclusiveRedeemablesLimit)
      return { status: 'SKIPPED', key: 'applicable_exclusive_redeemables_limit_exceeded' };
    if (applicable >= rules.applicableRedeemablesLimit) return { status: 'SKIPPED', key: 'applicable_redeemables_limit_exceeded' };
    const categories = [...new Set(c.categoryIds)];
    const limitOf = (id: string) => rules.applicableRedeemablesCategoryLimits[id] ?? rules.applicableRedeemablesPerCategoryLimit;
    if (categories.some((id) => (perCategory.get(id) ?? 0) >= limitOf(id)))
      return { status: 'SKIPPED', key: 'applicable_redeemables_per_category_limit_exceeded' };
    applicable += 1;
    if (excl) exclusiveApplicable += 1;
    for (const id of categories) perCategory.set(id, (perCategory.get(id) ?? 0) + 1);
    return { status: 'APPLICABLE' };
  });
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
