import * as z from '../zod.js';

/**
 * POST /v1/templates/campaigns. Exactly one of `campaign_id` and `promotion_tier_id` must be set
 * (null counts as absent); the service says which rule a request broke.
 */
export const createCampaignTemplateBody = z.strictObject({
  name: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(200)),
  description: z.optional(z.nullable(z.string().check(z.maxLength(1000)))),
  campaign_id: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(200)))),
  promotion_tier_id: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(200)))),
});
export type CreateCampaignTemplateBody = z.output<typeof createCampaignTemplateBody>;
