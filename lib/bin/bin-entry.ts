import { randomBase62 } from '../ids.js';

export type BinResourceType = 'campaign' | 'product' | 'sku' | 'voucher';

/** A resource moved to the bin, with a snapshot of it as it was, so it can be restored later. */
export interface BinEntry {
  id: string;
  createdAt: string;
  /** Set when a dashboard user deleted it; the API has no users, so always null here. */
  deletedByUserId: string | null;
  resourceId: string;
  resourceType: BinResourceType;
  /** The campaign, product or SKU name, or the voucher code. */
  resourceName: string;
  /** The voucher's campaign (null for a standalone voucher). */
  resourceParentId: string | null;
  snapshot: Record<string, unknown>;
}

/**
 * A bin entry id that sorts by time: `tbe_` + 12 hex digits of milliseconds + 10 random
 * characters, so the bin partition reads in deletion order and `starting_after_id` is a key.
 */
export function binEntryId(at: Date): string {
  return `tbe_${at.getTime().toString(16).padStart(12, '0')}${randomBase62(10)}`;
}
