import * as z from '../zod.js';
import { nestQuery, queryBoolean, queryInt } from '../http/query-params.js';
import { campaignFiltersSchema } from './campaign-filters.schema.js';
import { CAMPAIGN_STATUSES, CAMPAIGN_TYPES } from './campaign.js';

const EXPANDS = ['category', 'access_settings_assignments'] as const;
const idList = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(100)));

/*
 * The parameters GET /v1/loyalties shares (loyalty-program-list.schema.ts), each its own declaration: a `z.pick`
 * of campaignListParameters built the filters' 170 schemas at load to keep four fields (docs/benchmarks.md
 * "Cold start: schemas built and never parsed").
 */
export const listLimit = z._default(queryInt(1, 100), 10);
export const listPage = z._default(queryInt(1, 100), 1);
export const listExpand = z.optional(
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((s: string) => s.split(',')),
    ),
    z.array(z.enum(EXPANDS)),
  ),
);
export const listOrder = z._default(z.enum(['created_at', '-created_at', 'updated_at', '-updated_at']), '-created_at');

/** GET /v1/campaigns's parameters once nested (GET /v1/loyalties takes some of them). */
export const campaignListParameters = z.strictObject({
  limit: listLimit,
  page: listPage,
  campaign_type: z.optional(z.enum(CAMPAIGN_TYPES)),
  campaign_status: z.optional(z.enum(CAMPAIGN_STATUSES)),
  is_referral_code: z.optional(queryBoolean),
  expand: listExpand,
  order: listOrder,
  filters: z.optional(campaignFiltersSchema),
  access_settings: z.optional(
    z.strictObject({
      filter: z.strictObject({ areas_ids: z.optional(idList), area_all_stores_ids: z.optional(idList), area_stores_ids: z.optional(idList) }),
    }),
  ),
});

/**
 * GET /v1/campaigns. Bracketed parameters (`filters[...]`, `access_settings[...]`) are read as
 * objects first (nestQuery); unknown parameters and values are refused.
 */
export const listCampaignsQuery = z.preprocess((q) => nestQuery(q as Record<string, string>), campaignListParameters);
export type ListCampaignsQuery = z.output<typeof listCampaignsQuery>;
