/*
 * In which order stacked redeemables are applied: the StackingRules' `redeemables_sorting_rule`.
 * Pure and deterministic (a stable sort whose ties fall back to the request's order), so the same
 * request is always applied, and limited (`SKIPPED`), in the same order.
 */

/** The reference's `redeemables_sorting_rule`; its default is REQUESTED_ORDER. */
export const SORTING_RULES = ['REQUESTED_ORDER', 'CATEGORY_HIERARCHY'] as const;
export type SortingRule = (typeof SORTING_RULES)[number];
export const DEFAULT_SORTING_RULE: SortingRule = 'REQUESTED_ORDER';

/** What the order reads of a redeemable: the categories of its voucher, campaign or promotion tier. */
export interface Sortable {
  categories?: readonly { hierarchy: number }[] | null;
}

/** The priority of a redeemable under CATEGORY_HIERARCHY: its best (lowest) category hierarchy; none = after every category. */
function priority(r: Sortable): number {
  const hierarchies = (r.categories ?? []).map((c) => c.hierarchy).filter((h) => Number.isFinite(h));
  return hierarchies.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...hierarchies);
}

/**
 * The redeemables in the order they are applied (and counted against the stacking limits).
 * REQUESTED_ORDER: as sent. CATEGORY_HIERARCHY: by the hierarchy of their categories, lowest
 * first (Voucherify's category priority: 1 before 2), a redeemable with several categories
 * by its lowest, those without a category last; equal priorities keep the request's order.
 * Returns a new array; the input is not changed.
 */
export function applicationOrder<T extends Sortable>(redeemables: readonly T[], rule: SortingRule = DEFAULT_SORTING_RULE): T[] {
  if (rule === 'REQUESTED_ORDER') return [...redeemables];
  return redeemables
    .map((r, position) => ({ r, position, p: priority(r) }))
    .sort((a, b) => (a.p === b.p ? a.position - b.position : a.p < b.p ? -1 : 1))
    .map(({ r }) => r);
}
