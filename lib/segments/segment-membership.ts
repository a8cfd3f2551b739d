import { segment as segmentEntity } from '../db/entities.js';
import type { Runtime } from '../runtime.js';
import type { Customer } from '../customers/customer.js';
import type { Segment } from './segment.js';
import { type FilterCustomer, matchesSegmentFilter } from './segment-filter-match.js';

/** The project's segments (at most MAX_SEGMENTS_PER_PROJECT: one Query of their partition, read consistently). */
export function projectSegments(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string): Promise<Segment[]> {
  return segmentEntity.query(deps, { key: [projectId] }, { consistent: true });
}

/** A customer as segment filters read it (wire field names). */
export const filterCustomerOf = (c: Customer): FilterCustomer => ({
  id: c.id,
  source_id: c.sourceId,
  name: c.name,
  email: c.email,
  phone: c.phone,
  description: c.description,
  birthdate: c.birthdate,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
  address: c.address
    ? {
        city: c.address.city,
        state: c.address.state,
        country: c.address.country,
        postal_code: c.address.postalCode,
        line_1: c.address.line1,
        line_2: c.address.line2,
      }
    : null,
  metadata: c.metadata,
});

/** Whether the customer passes a segment's stored filter (filters are checked when the segment is made). */
export const inSegment = (c: Customer, s: Segment): boolean => s.filter !== null && matchesSegmentFilter(filterCustomerOf(c), s.filter);

/**
 * The customer's memberships after a write: each auto-update segment it passes now, and the static
 * and passive ones it held whose segment still exists (their membership never follows writes).
 */
export function membershipOf(c: Customer, segments: readonly Segment[]): string[] {
  const byId = new Map(segments.map((s) => [s.id, s]));
  const kept = (c.segmentIds ?? []).filter((id) => byId.has(id) && byId.get(id)?.type !== 'auto-update');
  return [...kept, ...segments.filter((s) => s.type === 'auto-update' && inSegment(c, s)).map((s) => s.id)];
}
