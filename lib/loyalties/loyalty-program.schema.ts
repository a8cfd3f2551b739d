import * as z from '../zod.js';
import { updateCampaignBody } from '../campaigns/campaign-lifecycle.schema.js';
import { campaignListParameters } from '../campaigns/campaign-list.schema.js';
import { loyaltyProgramShape } from '../campaigns/campaign.schema.js';

/**
 * POST /v1/loyalties (Voucherify's LoyaltiesCreateCampaignRequestBody): POST /v1/campaigns's
 * LOYALTY_PROGRAM body, whose `campaign_type` may be left out; any other type is refused.
 */
export const createLoyaltyProgramBody = z.strictObject({
  ...loyaltyProgramShape,
  campaign_type: z._default(z.literal('LOYALTY_PROGRAM'), 'LOYALTY_PROGRAM'),
});
export type CreateLoyaltyProgramBody = z.output<typeof createLoyaltyProgramBody>;

/** GET /v1/loyalties: GET /v1/campaigns's paging, order and expand (the type is fixed to LOYALTY_PROGRAM). */
export const listLoyaltyProgramsQuery = z.pick(campaignListParameters, { limit: true, page: true, expand: true, order: true });
export type ListLoyaltyProgramsQuery = z.output<typeof listLoyaltyProgramsQuery>;

/**
 * PUT /v1/loyalties/{campaignId} (Voucherify's LoyaltiesUpdateCampaignRequestBody): PUT
 * /v1/campaigns/{campaignId}'s body without the fields other campaign types have.
 */
export const updateLoyaltyProgramBody = z.omit(updateCampaignBody, { discount: true, gift: true, referral_program: true });
export type UpdateLoyaltyProgramBody = z.output<typeof updateLoyaltyProgramBody>;
