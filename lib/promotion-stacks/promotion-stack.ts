import type { Category } from '../categories/category.js';

/**
 * A promotion stack: an ordered set of one PROMOTION campaign's tiers that a validation or a
 * redemption applies together, in the stack's order (`hierarchy_mode` MANUAL, the reference's only one).
 */
export interface PromotionStack {
  id: string;
  campaignId: string;
  name: string;
  /** The tiers, in the order they apply. */
  tierIds: string[];
  hierarchyMode: 'MANUAL';
  categoryId: string | null;
  /**
   * A copy of that category as it was when the stack was last written, for the stack's webhook events
   * (lib/events-out), which read nothing; replies show the category as it is now. Absent on stacks written before.
   */
  category?: Category | null;
  createdAt: string;
  updatedAt: string | null;
  /** Optimistic lock: raised by every change; a change holds only while the stack is as read. */
  revision: number;
}

/** The reference: "A promotion stack can include up to 30 tiers" (also the most redeemables a request may name). */
export const MAX_STACK_TIERS = 30;
/** How many stacks a project may have: both lists read them all in one consistent Query. */
export const MAX_PROMOTION_STACKS_PER_PROJECT = 500;

/**
 * The first of `tierIds` that `campaignTierIds` lacks, or a repeated one: a stack names each tier of
 * its own campaign once. Pure.
 */
export function misnamedTier(tierIds: readonly string[], campaignTierIds: ReadonlySet<string>): { id: string; why: 'missing' | 'repeated' } | null {
  const seen = new Set<string>();
  for (const id of tierIds) {
    if (!campaignTierIds.has(id)) return { id, why: 'missing' };
    if (seen.has(id)) return { id, why: 'repeated' };
    seen.add(id);
  }
  return null;
}

export type StackOrder = 'created_at' | '-created_at' | 'updated_at' | '-updated_at' | 'name' | '-name';

/** Sorts stacks by the list's `order` (a stack never changed counts its creation as its last change); ties by id. Pure. */
export function sortStacks(stacks: readonly PromotionStack[], order: StackOrder): PromotionStack[] {
  const desc = order.startsWith('-');
  const field = (desc ? order.slice(1) : order) as 'created_at' | 'updated_at' | 'name';
  const keyOf = (s: PromotionStack): string => (field === 'name' ? s.name : field === 'updated_at' ? (s.updatedAt ?? s.createdAt) : s.createdAt);
  const sign = desc ? -1 : 1;
  return [...stacks].sort((a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    if (ka !== kb) return ka < kb ? -sign : sign;
    return a.id < b.id ? -sign : a.id > b.id ? sign : 0;
  });
}

/** Whether a stack falls inside the list's `created_at` / `updated_at` bounds (both exclusive, as the reference's before/after). Pure. */
export function withinDates(
  s: PromotionStack,
  created: { before?: string | undefined; after?: string | undefined } | undefined,
  updated: { before?: string | undefined; after?: string | undefined } | undefined,
): boolean {
  const c = Date.parse(s.createdAt);
  if (created?.before !== undefined && !(c < Date.parse(created.before))) return false;
  if (created?.after !== undefined && !(c > Date.parse(created.after))) return false;
  const u = Date.parse(s.updatedAt ?? s.createdAt);
  if (updated?.before !== undefined && !(u < Date.parse(updated.before))) return false;
  if (updated?.after !== undefined && !(u > Date.parse(updated.after))) return false;
  return true;
}
