import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of the loyalty member endpoints (lib/loyalties/loyalty.mapper.ts writes these shapes).
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

export const balanceReplySchema = z.strictObject({
  points: z.int(),
  total: z.int(),
  balance: z.int().check(z.nonnegative()),
  type: z.literal('loyalty_card'),
  object: z.literal('balance'),
  related_object: z.strictObject({ type: z.literal('voucher'), id: z.string() }),
  operation_type: z.literal('MANUAL'),
});

export const pointsBucketReplySchema = z.strictObject({
  id: z.string(),
  voucher_id: z.string(),
  campaign_id: z.string(),
  bucket: z.strictObject({ total_points: z.int() }),
  status: z.string(),
  expires_at: z.optional(z.string()),
  created_at: z.string(),
  updated_at: z.optional(z.string()),
  object: z.literal('loyalty_points_bucket'),
});

export const pointsExpirationReplySchema = listReply(pointsBucketReplySchema, { dataRef: 'data', total: z.int() });
