import * as z from '../zod.js';
import { updateFieldsOfEveryType, updateFieldsOfEveryTypeAfter } from '../campaigns/campaign-lifecycle.schema.js';

/**
 * PUT /v1/loyalties/{campaignId} (Voucherify's LoyaltiesUpdateCampaignRequestBody): PUT
 * /v1/campaigns/{campaignId}'s body without the fields other campaign types have.
 */
export const updateLoyaltyProgramBody = z.strictObject({ ...updateFieldsOfEveryType, ...updateFieldsOfEveryTypeAfter });
export type UpdateLoyaltyProgramBody = z.output<typeof updateLoyaltyProgramBody>;
