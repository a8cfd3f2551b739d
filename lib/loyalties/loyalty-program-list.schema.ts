import * as z from '../zod.js';
import { campaignListParameters } from '../campaigns/campaign-list.schema.js';

/** GET /v1/loyalties: GET /v1/campaigns's paging, order and expand (the type is fixed to LOYALTY_PROGRAM). */
export const listLoyaltyProgramsQuery = z.pick(campaignListParameters, { limit: true, page: true, expand: true, order: true });
export type ListLoyaltyProgramsQuery = z.output<typeof listLoyaltyProgramsQuery>;
