import * as z from '../zod.js';

/** The campaign template object of the spec (lib/templates/campaign-template.mapper.ts); not imported by handlers. */
export const campaignTemplateReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  campaign_type: z.enum(['DISCOUNT_COUPONS', 'GIFT_VOUCHERS']),
  created_at: z.iso.datetime(),
  object: z.literal('campaign_template'),
});
export type CampaignTemplateReply = z.output<typeof campaignTemplateReplySchema>;
