import * as z from '../zod.js';
import { listExpand, listLimit, listOrder, listPage } from '../campaigns/campaign-list.schema.js';

/** GET /v1/loyalties: GET /v1/campaigns's paging, order and expand (the type is fixed to LOYALTY_PROGRAM). */
export const listLoyaltyProgramsQuery = z.strictObject({ limit: listLimit, page: listPage, expand: listExpand, order: listOrder });
export type ListLoyaltyProgramsQuery = z.output<typeof listLoyaltyProgramsQuery>;
