import { queryInt } from '../http/query-params.js';
import { refusedField } from '../not-built.schema.js';
import * as z from '../zod.js';
import { MAX_SEGMENT_SCAN } from './segment.js';

const name = z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(200));
/** A customer id or source id, as the customer routes take them. */
const customerRef = z.string().check(z.minLength(1), z.maxLength(1500));

/**
 * POST /v1/segments: a static segment lists its customers (ids or source ids); an auto-update or
 * passive one gives a `filter` (checked by lib/segments/segment-filter.ts, which names what it
 * cannot evaluate). `type` absent means static, the reference's default.
 */
export const createSegmentBody = z.strictObject({
  name,
  type: z._default(z.enum(['static', 'auto-update', 'passive']), 'static'),
  customers: z.optional(z.array(customerRef).check(z.maxLength(MAX_SEGMENT_SCAN))),
  filter: z.optional(z.record(z.string(), z.unknown())),
});
export type CreateSegmentBody = z.output<typeof createSegmentBody>;

/** `{segmentId}`: a segment's id. */
export const segmentParams = z.strictObject({ segmentId: z.string().check(z.minLength(1), z.maxLength(200)) });

/**
 * GET /v1/segments: `limit` (1–100, default 10), `page`, creation order. `filters` (not named here:
 * refused as every list refuses filters it does not serve) and `ids` are refused rather than
 * ignored: ignoring them would list segments the client excluded.
 */
export const listSegmentsQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 100), 1),
  order: z._default(z.enum(['created_at', '-created_at']), 'created_at'),
  ids: refusedField('segment lists are not filtered by id; use GET /v1/segments/{segmentId}'),
});
export type ListSegmentsQuery = z.output<typeof listSegmentsQuery>;
