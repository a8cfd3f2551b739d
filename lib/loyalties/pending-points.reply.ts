import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of the pending points endpoints (lib/loyalties/pending-points.mapper.ts writes
 * these shapes). Only the OpenAPI generator and the tests import this module.
 */

const related = z.strictObject({ type: z.literal('voucher'), id: z.string() });

/** One pending points entry (the reference's LoyaltyPendingPoints). */
export const pendingPointsReplySchema = z.strictObject({
  id: z.string(),
  voucher_id: z.string(),
  campaign_id: z.string(),
  customer_id: z.string(),
  order_id: z.string(),
  points: z.int().check(z.positive()),
  activates_at: z.iso.date(),
  details: z.strictObject({
    event: z.strictObject({
      id: z.string(),
      type: z.literal('customer.order.paid'),
      entity_id: z.string(),
      created_at: z.iso.datetime(),
      category: z.literal('EFFECT'),
    }),
    earning_rule: z.strictObject({ id: z.string(), source: z.strictObject({ banner: z.string() }) }),
    order: z.strictObject({ id: z.string(), source_id: z.nullable(z.string()) }),
  }),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

/** The pending points lists: one page by id, `more_starting_after` naming the next page's cursor. */
export const pendingPointsListReplySchema = listReply(pendingPointsReplySchema, {
  dataRef: 'data',
  total: null,
  hasMore: true,
  after: { more_starting_after: z.optional(z.string()) },
});

/** The card after an activation (the reference's LoyaltiesMembersPendingPointsActivateResponseBody). */
export const pendingActivationReplySchema = z.strictObject({
  points: z.int(),
  total: z.int(),
  balance: z.int().check(z.nonnegative()),
  type: z.literal('loyalty_card'),
  object: z.literal('balance'),
  related_object: related,
  operation_type: z.literal('MANUAL'),
});

/** An adjustment of a pending entry (the reference's LoyaltiesMembersPendingPointsBalanceResponseBody): `total` is the card's pending points after it. */
export const pendingAdjustmentReplySchema = z.strictObject({
  points: z.int(),
  total: z.int().check(z.nonnegative()),
  object: z.literal('balance'),
  related_object: related,
  operation_type: z.literal('MANUAL'),
});
