import * as z from '../zod.js';
import { type ExportOrder, POINTS_EXPIRATION_FIELDS } from './export.js';
import { exportFiltersSchema } from './export-filters.js';

/**
 * Sort orders of an export: any exportable field, ascending, or descending with a leading `-`.
 * Expiry orders stream in key order (buckets are stored sorted by expiry); the others go through
 * an external merge sort in the worker (external-sort.ts). Anything else is refused.
 */
export const EXPORT_ORDERS = [
  'expires_at',
  '-expires_at',
  'id',
  '-id',
  'campaign_id',
  '-campaign_id',
  'voucher_id',
  '-voucher_id',
  'status',
  '-status',
  'points',
  '-points',
] as const satisfies readonly ExportOrder[];
// Every field, both ways: a field added to POINTS_EXPIRATION_FIELDS without its orders fails to compile here.
const _everyOrder: readonly (typeof EXPORT_ORDERS)[number][] = [] as ExportOrder[];
void _everyOrder;

const field = z.enum(POINTS_EXPIRATION_FIELDS, {
  error: (issue) => `must be one of ${POINTS_EXPIRATION_FIELDS.join(', ')} (got ${JSON.stringify(issue.input)})`,
});

/** An export's parameters: validated in the request, echoed in the reply (export.reply.ts). */
export const exportParameters = z.strictObject({
  // An empty list names no field, like an absent one: every field (the reference sets no minimum).
  fields: z.optional(z.array(field).check(z.refine((fields) => new Set(fields).size === fields.length, { error: 'must not name a field twice' }))),
  order: z.optional(
    z.enum(EXPORT_ORDERS, {
      error: (issue) => `must be one of ${EXPORT_ORDERS.join(', ')} (got ${JSON.stringify(issue.input)})`,
    }),
  ),
  filters: z.optional(exportFiltersSchema),
});

/** POST /v1/loyalties/{campaignId}/points-expiration/export */
export const createPointsExpirationExportBody = z.strictObject({ parameters: z.optional(exportParameters) });
export type CreatePointsExpirationExportBody = z.output<typeof createPointsExpirationExportBody>;

export const loyaltyCampaignParams = z.strictObject({ campaignId: z.string().check(z.minLength(1), z.maxLength(1000)) });

export const exportParams = z.strictObject({ exportId: z.string().check(z.minLength(1), z.maxLength(100)) });

/** The download cluster's query: the token from `result.url`. */
/** Without a token the reply is the same 401 as with a wrong one. */
export const downloadExportQuery = z.strictObject({ token: z.optional(z.string().check(z.maxLength(1000))) });
