import * as z from '../zod.js';
import { promotionTierReplySchema } from './campaign.reply.js';

/** GET /v1/promotions/tiers and GET /v1/promotions/{campaignId}/tiers (Voucherify's `PromotionTiersList`). */
export const promotionTierListReplySchema = z.strictObject({
  object: z.literal('list'),
  data_ref: z.literal('tiers'),
  tiers: z.array(promotionTierReplySchema),
  total: z.int().check(z.nonnegative()),
  has_more: z.boolean(),
});
