import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/* Reply schemas of segments (lib/segments/segment.mapper.ts writes these shapes); only the OpenAPI generator and the tests import this module. */

/** The segment object. */
export const segmentReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.nullable(z.iso.datetime()),
  type: z.enum(['auto-update', 'passive', 'static']),
  filter: z.nullable(z.record(z.string(), z.unknown())),
  object: z.literal('segment'),
});
export type SegmentReply = z.output<typeof segmentReplySchema>;

/** GET /v1/segments: one page of the project's segments; `total` counts them all. */
export const segmentListReplySchema = listReply(segmentReplySchema, { dataRef: 'data', total: "The number of the project's segments" });
export type SegmentListReply = z.output<typeof segmentListReplySchema>;

/** A segment as a customer's segment list shows it. */
export const simpleSegmentReplySchema = z.strictObject({ id: z.string(), name: z.string(), object: z.literal('segment') });

/** GET /v1/customers/{customerId}/segments: every segment the customer is a member of. */
export const customerSegmentListReplySchema = listReply(simpleSegmentReplySchema, { dataRef: 'data', total: 'The number of segments the customer is in' });
export type CustomerSegmentListReply = z.output<typeof customerSegmentListReplySchema>;
