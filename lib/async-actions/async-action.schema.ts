import { queryInt } from '../http/query-params.js';
import * as z from '../zod.js';

/** GET /v1/async-actions/{asyncActionId}: any string; one that cannot exist is simply not found. */
export const asyncActionParams = z.strictObject({ asyncActionId: z.string().check(z.minLength(1), z.maxLength(200)) });

/**
 * GET /v1/async-actions: `limit` (1–100, default 10) and `end_date`, a date (`2016-11-16`, its
 * midnight UTC) or date-time: only actions created before it, read as the ISO instant the
 * actions' `created_at` are stored in.
 */
export const listAsyncActionsQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  end_date: z.optional(
    z.pipe(
      z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time' }),
      z.transform((v) => new Date(v).toISOString()),
    ),
  ),
});
export type ListAsyncActionsQuery = z.output<typeof listAsyncActionsQuery>;
