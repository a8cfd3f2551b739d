import type { CampaignType, Discount, VoucherType } from '../campaigns/campaign.js';
import { needsOrderItems } from '../validations/validity.js';
import type { QualificationFilters, QualificationScenario, QualificationSortingRule } from './qualification.schema.js';

/*
 * The pure part of POST /v1/qualifications: which candidates a scenario and the filters admit, the
 * order they are examined in, where a page ends and how it is sorted. No I/O.
 * docs/decisions.md "Qualifications" states the choices.
 */

/** Where a candidate comes from: the customer's wallet, a STANDALONE (generic code) campaign, or a promotion. */
export type CandidateSource = 'wallet' | 'public' | 'tier';

/** A redeemable that might qualify, before the engine has evaluated it. */
export interface Candidate {
  object: 'voucher' | 'promotion_tier';
  /** Voucher code or promotion tier id. */
  id: string;
  createdAt: string;
  campaignId: string | null;
  campaignType: CampaignType | null;
  voucherType: VoucherType | null;
  categoryIds: string[];
  source: CandidateSource;
  /** Its discount is applied to order items (an item effect, or a UNIT discount that adds items). */
  itemLevel: boolean;
}

/** Whether a discount is defined on items rather than on the order total. */
export const isItemLevel = (discount: Discount | null): boolean => discount !== null && (discount.type === 'UNIT' || needsOrderItems(discount));

/** The sources each scenario examines, and whether it keeps only item-level discounts. */
export function scenarioScope(scenario: QualificationScenario): { sources: ReadonlySet<CandidateSource>; itemLevelOnly: boolean } {
  const everything = new Set<CandidateSource>(['wallet', 'public', 'tier']);
  const offers = new Set<CandidateSource>(['public', 'tier']);
  switch (scenario) {
    case 'ALL':
    case 'AUDIENCE_ONLY':
      return { sources: everything, itemLevelOnly: false };
    case 'CUSTOMER_WALLET':
      return { sources: new Set(['wallet']), itemLevelOnly: false };
    case 'PRODUCTS':
    case 'PRODUCTS_DISCOUNT':
      return { sources: offers, itemLevelOnly: true };
    case 'PRODUCTS_BY_CUSTOMER':
    case 'PRODUCTS_DISCOUNT_BY_CUSTOMER':
      return { sources: everything, itemLevelOnly: true };
  }
}

interface Conditions {
  $is?: readonly string[] | undefined;
  $is_not?: readonly string[] | undefined;
  $in?: readonly string[] | undefined;
  $not_in?: readonly string[] | undefined;
  $has_value?: unknown;
  $is_unknown?: unknown;
}

function holds(conditions: Conditions, values: readonly (string | null)[]): boolean {
  const present = values.filter((v): v is string => v !== null);
  const any = (list: readonly string[]) => present.some((v) => list.includes(v));
  if (conditions.$is && !any(conditions.$is)) return false;
  if (conditions.$in && !any(conditions.$in)) return false;
  if (conditions.$is_not && any(conditions.$is_not)) return false;
  if (conditions.$not_in && any(conditions.$not_in)) return false;
  if (conditions.$has_value !== undefined && present.length === 0) return false;
  if (conditions.$is_unknown !== undefined && present.length > 0) return false;
  return true;
}

/** Whether a candidate passes `options.filters` (every named field with `and`, any with `or`; no field: all pass). */
export function matchesFilters(c: Candidate, filters: QualificationFilters | undefined): boolean {
  if (!filters) return true;
  const checks: boolean[] = [];
  const check = (f: { conditions: Conditions } | undefined, values: readonly (string | null)[]) => {
    if (f) checks.push(holds(f.conditions, values));
  };
  check(filters.resource_type, [c.object]);
  check(filters.resource_id, [c.id]);
  check(filters.code, [c.object === 'voucher' ? c.id : null]);
  check(filters.campaign_id, [c.campaignId]);
  check(filters.campaign_type, [c.campaignType]);
  check(filters.voucher_type, [c.voucherType]);
  check(filters.category_id, c.categoryIds);
  check(filters.holder_role, [c.source === 'wallet' ? 'OWNER' : null]);
  if (checks.length === 0) return true;
  return filters.junction?.toLowerCase() === 'or' ? checks.some(Boolean) : checks.every(Boolean);
}

/** Newest first; ties by id, descending, so the order is total. */
export const byCreationDesc = (a: Pick<Candidate, 'createdAt' | 'id'>, b: Pick<Candidate, 'createdAt' | 'id'>): number =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1;

/**
 * The candidates to examine, in examination order (newest first): one per (object, id) with a
 * wallet voucher kept over the same code found as a public one, created strictly before
 * `startingAfter` when given, within the scenario's scope and the filters.
 */
export function candidatesToExamine(
  all: readonly Candidate[],
  scenario: QualificationScenario,
  filters: QualificationFilters | undefined,
  startingAfter: string | null,
): Candidate[] {
  const scope = scenarioScope(scenario);
  const seen = new Map<string, Candidate>();
  for (const c of all) {
    const key = `${c.object}\u0000${c.id}`;
    const had = seen.get(key);
    if (!had || (had.source !== 'wallet' && c.source === 'wallet')) seen.set(key, c);
  }
  return [...seen.values()]
    .filter((c) => scope.sources.has(c.source))
    .filter((c) => !scope.itemLevelOnly || c.itemLevel)
    .filter((c) => startingAfter === null || c.createdAt < startingAfter)
    .filter((c) => matchesFilters(c, filters))
    .sort(byCreationDesc);
}

/**
 * Cuts a page of `limit` from the qualified redeemables (newest first). The cursor is a creation
 * time, so a page never ends inside a millisecond that goes on past it: those redeemables move to
 * the next page together (unless they alone fill the page, which then keeps `limit` of them).
 */
export function cutPage<T extends { createdAt: string }>(qualified: readonly T[], limit: number): { page: T[]; hasMore: boolean } {
  if (qualified.length <= limit) return { page: [...qualified], hasMore: false };
  const page = qualified.slice(0, limit);
  const next = qualified[limit];
  let end = page.length;
  while (end > 0 && page[end - 1]?.createdAt === next?.createdAt) end -= 1;
  return { page: end > 0 ? page.slice(0, end) : page, hasMore: true };
}

/** A page in the reply's order: DEFAULT newest first; BEST_DEAL / LEAST_DEAL by the discount applied, then newest first. */
export function sortPage<T extends { createdAt: string; id: string; appliedDiscount: number }>(page: readonly T[], rule: QualificationSortingRule): T[] {
  const sorted = [...page].sort(byCreationDesc);
  if (rule === 'BEST_DEAL') return sorted.sort((a, b) => b.appliedDiscount - a.appliedDiscount);
  if (rule === 'LEAST_DEAL') return sorted.sort((a, b) => a.appliedDiscount - b.appliedDiscount);
  return sorted;
}
