import * as z from '../zod.js';
import { updateCampaignBody } from '../campaigns/campaign-lifecycle.schema.js';

/**
 * PUT /v1/loyalties/{campaignId} (Voucherify's LoyaltiesUpdateCampaignRequestBody): PUT
 * /v1/campaigns/{campaignId}'s body without the fields other campaign types have.
 */
export const updateLoyaltyProgramBody = z.omit(updateCampaignBody, { discount: true, gift: true, referral_program: true });
export type UpdateLoyaltyProgramBody = z.output<typeof updateLoyaltyProgramBody>;
