import * as z from '../zod.js';
import { loyaltyProgramShape } from '../campaigns/campaign.schema.js';

/*
 * One module per request schema of the /v1/loyalties program routes: a schema is built when its
 * module loads, so each handler's bundle holds only its own (loyalty-program-list.schema.ts,
 * loyalty-program-lifecycle.schema.ts hold the others).
 */

/**
 * POST /v1/loyalties (Voucherify's LoyaltiesCreateCampaignRequestBody): POST /v1/campaigns's
 * LOYALTY_PROGRAM body, whose `campaign_type` may be left out; any other type is refused.
 */
export const createLoyaltyProgramBody = z.strictObject({
  ...loyaltyProgramShape,
  campaign_type: z._default(z.literal('LOYALTY_PROGRAM'), 'LOYALTY_PROGRAM'),
});
export type CreateLoyaltyProgramBody = z.output<typeof createLoyaltyProgramBody>;
