import { queryBoolean, queryInt } from '../http/query-params.js';
import * as z from '../zod.js';
import { promotionTierSchema } from './campaign.schema.js';

/** Path of the single-tier endpoints: a tier id as this service makes them (`promo_…`), or any string (404). */
export const promotionTierParams = z.strictObject({ promotionTierId: z.string().check(z.minLength(1), z.maxLength(200)) });

/** POST /v1/promotions/{campaignId}/tiers: a tier as create-campaign's `promotion.tiers[]` takes it. */
export const addPromotionTierToCampaignBody = promotionTierSchema;
export type AddPromotionTierToCampaignBody = z.output<typeof addPromotionTierToCampaignBody>;

/**
 * PUT /v1/promotions/tiers/{promotionTierId}: the fields sent replace the tier's; `null` clears a
 * validity field. The official SDK sends the tier's `id` in the body too: accepted when it is the path's.
 */
export const updatePromotionTierBody = z.extend(z.partial(promotionTierSchema), { id: z.optional(z.string().check(z.minLength(1), z.maxLength(200))) });
export type UpdatePromotionTierBody = z.output<typeof updatePromotionTierBody>;

/** GET /v1/promotions/tiers. */
export const listPromotionTiersQuery = z.strictObject({
  is_available: z.optional(queryBoolean),
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 100), 1),
  order: z._default(z.enum(['created_at', '-created_at', 'updated_at', '-updated_at']), 'created_at'),
});
export type ListPromotionTiersQuery = z.output<typeof listPromotionTiersQuery>;
