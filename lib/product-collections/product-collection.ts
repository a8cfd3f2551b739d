/** A product collection (Voucherify's `products_collection`). */
export type CollectionType = 'STATIC' | 'AUTO_UPDATE';

/** One value of a filter condition, as the reference's FiltersCondition lists them. */
export type FilterValue = string | number;

/** An AUTO_UPDATE collection's filter as stored and echoed: the junction, and per field its operators, each with a list of values. */
export interface CollectionFilter {
  junction: 'and' | 'or';
  fields: Record<string, { conditions: Record<string, FilterValue[]> }>;
}

export interface ProductCollection {
  id: string;
  name: string;
  type: CollectionType;
  /** AUTO_UPDATE only. */
  filter: CollectionFilter | null;
  createdAt: string;
  /** The membership generation (absent: 0): a filter change marks its members for the next one, then moves this in one write. */
  gen?: number | undefined;
}

/** A product or SKU in a collection: one item in the collection's partition, keyed by the member's id. */
export interface CollectionMember {
  collectionId: string;
  /** The product's or the SKU's id. */
  id: string;
  object: 'product' | 'sku';
  /** The product itself, or the SKU's product. */
  productId: string;
  createdAt: string;
  /** A member from this generation of its collection on (absent: from any): joined by a filter change not yet made. */
  since?: number | undefined;
  /** A member before this generation only (absent: still): left by a filter change. */
  until?: number | undefined;
}

/** Whether the member item counts at the collection's generation `gen` (docs/decisions.md "A collection changing while a validation reads it"). */
export const isMemberAt = (m: Pick<CollectionMember, 'since' | 'until'>, gen: number): boolean =>
  (m.since ?? 0) <= gen && (m.until === undefined || gen < m.until);

/**
 * Collections per project. Every product write reads the project's collections and puts its
 * AUTO_UPDATE memberships in its own transaction (100 items at most, the product's own up to 3):
 * the cap keeps that transaction within DynamoDB's limit.
 */
export const MAX_COLLECTIONS_PER_PROJECT = 50;
/** Products and SKUs a STATIC collection lists (its reply carries them all). */
export const MAX_STATIC_MEMBERS = 100;
/** The most products an AUTO_UPDATE collection's create (or filter change) scans for those that match. */
export const MAX_SCANNED_PRODUCTS = 1000;
