import * as z from 'zod';

/**
 * POST /v1/templates/campaigns. Exactly one of `campaign_id` and `promotion_tier_id` must be set
 * (null counts as absent); the service says which rule a request broke.
 */
export const createCampaignTemplateBody = z.strictObject({
  name: z.string({ error: 'is required' }).min(1).max(200),
  description: z.string().max(1000).nullable().optional(),
  campaign_id: z.string().min(1).max(200).nullable().optional(),
  promotion_tier_id: z.string().min(1).max(200).nullable().optional(),
});
export type CreateCampaignTemplateBody = z.output<typeof createCampaignTemplateBody>;
