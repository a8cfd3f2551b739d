import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of the reward endpoints (lib/rewards/reward.mapper.ts writes these shapes).
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const dateTimeReply = z.iso.datetime();

export const rewardReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^rew_/)),
  name: z.string(),
  type: z.enum(['CAMPAIGN', 'COIN', 'MATERIAL']),
  parameters: z.union([
    z.strictObject({
      campaign: z.strictObject({
        id: z.string(),
        balance: z.optional(z.int()),
        type: z.enum(['DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'LOYALTY_PROGRAM']),
      }),
    }),
    z.strictObject({ coin: z.strictObject({ exchange_ratio: z.number(), points_ratio: z.int() }) }),
    z.strictObject({ product: z.strictObject({ id: z.string(), sku_id: z.nullable(z.string()) }) }),
  ]),
  stock: z.nullable(z.int()),
  redeemed: z.nullable(z.int()),
  attributes: z.strictObject({ image_url: z.optional(z.string()), description: z.optional(z.string()) }),
  metadata: z.record(z.string(), z.unknown()),
  created_at: dateTimeReply,
  updated_at: z.nullable(dateTimeReply),
  object: z.literal('reward'),
});

export const rewardAssignmentReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^rewa_/)),
  reward_id: z.string(),
  related_object_id: z.string(),
  related_object_type: z.literal('campaign'),
  parameters: z.strictObject({ loyalty: z.strictObject({ points: z.int().check(z.positive()) }) }),
  created_at: dateTimeReply,
  updated_at: z.nullable(dateTimeReply),
  object: z.literal('reward_assignment'),
});

export const rewardListReplySchema = listReply(rewardReplySchema, { dataRef: 'data' });
export const rewardAssignmentListReplySchema = listReply(rewardAssignmentReplySchema, { dataRef: 'data' });
