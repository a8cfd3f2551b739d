import { listReply } from '../openapi/list-reply.js';
import { promotionTierReplySchema } from './campaign.reply.js';

/** GET /v1/promotions/tiers and GET /v1/promotions/{campaignId}/tiers (Voucherify's `PromotionTiersList`). */
export const promotionTierListReplySchema = listReply(promotionTierReplySchema, { dataRef: 'tiers', hasMore: true });
