import * as z from '../zod.js';

/*
 * Reply schema of POST /v1/customers/{customerId}/permanent-deletion (the reference's
 * CustomersPermanentDeletionCreateResponseBody). Only the OpenAPI generator and the tests import it.
 */

const count = z.int().check(z.nonnegative());

/** A permanent deletion (lib/customers/customer-erasure.mapper.ts). */
export const customerPermanentDeletionReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^del_/)),
  created_at: z.iso.datetime(),
  related_object_id: z.string(),
  related_object: z.literal('customer'),
  status: z.enum(['IN_PROGRESS', 'DONE', 'FAILED']),
  data_json: z.strictObject({
    events: count,
    customer_events: count,
    daily_events: count,
    segments: count,
    orders: count,
    order_events: count,
    customer: count,
  }),
  object: z.literal('pernament_deletion'),
});
