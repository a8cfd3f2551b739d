import { categoryReplySchema } from '../categories/category.reply.js';
import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of promotion stacks (promotion-stack.mapper.ts writes these shapes). Only the
 * OpenAPI generator and the tests import this module.
 */

/** Voucherify's PromotionStack; `updated_at` only once the stack was changed. */
export const promotionStackReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.optional(z.iso.datetime()),
  campaign_id: z.string(),
  object: z.literal('promotion_stack'),
  tiers: z.strictObject({ ids: z.array(z.string()), hierarchy_mode: z.literal('MANUAL') }),
  category_id: z.nullable(z.string()),
  categories: z.array(categoryReplySchema),
});
export type PromotionStackReply = z.output<typeof promotionStackReplySchema>;

/** GET /v1/promotions/stacks and GET /v1/promotions/{campaignId}/stacks (the reference's PromotionsStacksListResponseBody). */
export const promotionStackListReplySchema = listReply(promotionStackReplySchema, {
  dataRef: 'data',
  total: 'The number of stacks that match, on every page',
});
export type PromotionStackListReply = z.output<typeof promotionStackListReplySchema>;
