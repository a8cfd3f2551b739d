import * as z from '../zod.js';
import { summaryDay } from './campaign-summary.js';

/** A day (`YYYY-MM-DD`) or an instant (ISO 8601); the summary counts whole UTC days, so an instant stands for its day. */
const dayOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** GET /v1/campaigns/{campaignId}/summary: the UTC days to sum, both included; either may be left open. */
export const getCampaignSummaryQuery = z.strictObject({ start_date: z.optional(dayOrInstant), end_date: z.optional(dayOrInstant) }).check(
  z.refine((q) => q.start_date === undefined || q.end_date === undefined || summaryDay(q.start_date) <= summaryDay(q.end_date), {
    message: 'must not be a day before start_date',
    path: ['end_date'],
  }),
);
export type GetCampaignSummaryQuery = z.output<typeof getCampaignSummaryQuery>;
