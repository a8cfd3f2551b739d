/** A category tag of campaigns and vouchers. */
export interface Category {
  id: string;
  name: string;
  /** Voucherify orders categories by hierarchy; categories made implicitly from a name get 0. */
  hierarchy: number;
  createdAt: string;
  updatedAt: string | null;
}

/**
 * A category as its own item holds it. Campaigns and vouchers hold a plain Category (a copy made
 * when they were written); these two fields belong to the category's item only.
 */
export interface StoredCategory extends Category {
  /** Optimistic lock: raised by every change, and a change holds only while it is as read. Absent on older items (0). */
  revision: number;
  /**
   * The item is in the project's category list (GSI1) and counted in its category counter.
   * Categories written before categories could be listed lack both; they join on their next change.
   */
  listed: boolean;
}

/** How many categories a project may have: the list endpoint returns them all in one reply. */
export const MAX_CATEGORIES_PER_PROJECT = 1000;
/** Highest `hierarchy` (Voucherify's integers are 32-bit); ten digits order it in a sort key. */
export const MAX_CATEGORY_HIERARCHY = 2_147_483_647;

/** The category without the item's own bookkeeping, as campaigns, vouchers and replies hold it. */
export const plainCategory = ({ id, name, hierarchy, createdAt, updatedAt }: Category): Category => ({ id, name, hierarchy, createdAt, updatedAt });
