import { createHash } from 'node:crypto';
import type { Customer } from './customer.js';

/**
 * The list views of customers. Every customer is in `ALL`; one with an email, a city or a name is
 * also in the view of that exact value, so GET /v1/customers filtered by one of them reads that
 * view's partition only. Each view has its own count (lib/db/entities.ts `customerCount`).
 */
export const ALL_CUSTOMERS = 'ALL';

/**
 * The customers without a source id, by creation. The source id order (the source id index)
 * cannot hold them, so it reads this view after (ascending) or before (descending) the index.
 */
export const CUSTOMERS_WITHOUT_SOURCE_ID = 'NO_SOURCE_ID';

/** The fields a list may be filtered by, one at a time. */
export type ViewField = 'email' | 'city' | 'name';

/**
 * The view of one value. The value is hashed (SHA-256, base64url): it may be up to 2000 bytes,
 * more than a key holds beside the project and prefix, and an exact, case-sensitive match needs
 * no more than its digest.
 */
export const viewOf = (field: ViewField, value: string): string => `${field.toUpperCase()}#${createHash('sha256').update(value).digest('base64url')}`;

/** Every view a customer belongs in, `ALL` first. */
export function viewsOf(c: Pick<Customer, 'sourceId' | 'email' | 'name' | 'address'>): string[] {
  const city = c.address?.city;
  return [
    ALL_CUSTOMERS,
    ...(c.sourceId === null ? [CUSTOMERS_WITHOUT_SOURCE_ID] : []),
    ...(c.email !== null ? [viewOf('email', c.email)] : []),
    ...(city !== undefined ? [viewOf('city', city)] : []),
    ...(c.name !== null ? [viewOf('name', c.name)] : []),
  ];
}

/**
 * Counts are split over this many items per view, so that concurrent creations (each adds to its
 * count inside its transaction) rarely touch the same item and cancel each other's transactions.
 */
export const COUNT_SHARDS = 8;

/** The count shard a customer adds to and later takes from: fixed by its id. */
export const countShardOf = (customerId: string): number => (createHash('sha256').update(customerId).digest()[0] ?? 0) % COUNT_SHARDS;

/** GSI1 sort keys are at most 1024 bytes: the source id order uses the first 1000 bytes (ties beyond them come in no set order). */
const SOURCE_ID_SORT_BYTES = 1000;

/** A source id as a sort key: itself, or its longest prefix of whole characters within 1000 bytes. */
export function sourceIdSortKey(sourceId: string): string {
  if (Buffer.byteLength(sourceId) <= SOURCE_ID_SORT_BYTES) return sourceId;
  let bytes = 0;
  let end = 0;
  for (const ch of sourceId) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > SOURCE_ID_SORT_BYTES) break;
    bytes += size;
    end += ch.length;
  }
  return sourceId.slice(0, end);
}
