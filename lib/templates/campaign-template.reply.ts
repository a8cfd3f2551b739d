import { campaignReplySchema, promotionTierReplySchema } from '../campaigns/campaign.reply.js';
import { countReply, listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/** The campaign template object of the spec (lib/templates/campaign-template.mapper.ts); not imported by handlers. */
export const campaignTemplateReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  campaign_type: z.enum(['DISCOUNT_COUPONS', 'GIFT_VOUCHERS']),
  created_at: z.iso.datetime(),
  updated_at: z.optional(z.iso.datetime()),
  object: z.literal('campaign_template'),
});
export type CampaignTemplateReply = z.output<typeof campaignTemplateReplySchema>;

/** GET /v1/templates/campaigns: one page; `total` only with `include_total=true`, `more_starting_after` only when `has_more`. */
export const campaignTemplateListReplySchema = listReply(campaignTemplateReplySchema, {
  dataRef: 'data',
  total: z.optional(countReply),
  hasMore: true,
  after: { more_starting_after: z.optional(z.string()) },
});
export type CampaignTemplateListReply = z.output<typeof campaignTemplateListReplySchema>;

/** Resources made out of a template besides the campaign or tier; always empty here (templates hold no validation rules, products or segments). */
const createdResourcesSchema = z.array(
  z.strictObject({ id: z.string(), object: z.enum(['validation_rules', 'product', 'sku', 'products_collection', 'segments', 'location']) }),
);

/** POST /v1/templates/campaigns/{id}/campaign-setup. */
export const campaignSetupReplySchema = z.strictObject({
  created_resources: createdResourcesSchema,
  campaign: campaignReplySchema,
  object: z.literal('campaign_setup'),
});
export type CampaignSetupReply = z.input<typeof campaignSetupReplySchema>;

/** POST /v1/templates/campaigns/{id}/tier-setup. */
export const promotionTierSetupReplySchema = z.strictObject({
  created_resources: createdResourcesSchema,
  promotion_tier: promotionTierReplySchema,
  object: z.literal('promotion_tier_setup'),
});
export type PromotionTierSetupReply = z.input<typeof promotionTierSetupReplySchema>;
