import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { ACTIVITY_TYPES } from './activity.js';

/**
 * Voucherify's CustomerActivity / MemberActivity (lib/activity/activity.mapper.ts): `data.data` is
 * the event's data object (its fields by type: `customer`, `redemption`, `publication`, `voucher`
 * and `transaction`, `event`, `segment`); not imported by handlers.
 */
export const activityReplySchema = z.strictObject({
  id: z.string().check(z.describe('`evcus_…`: also the cursor of the next page (`starting_after_id`)')),
  type: z.enum(ACTIVITY_TYPES),
  data: z.strictObject({
    data: z.record(z.string(), z.unknown()),
    event_source: z.strictObject({ channel: z.enum(['USER_PORTAL', 'API', 'CLIENT_API', 'INTERNAL']) }),
  }),
  created_at: z.iso.datetime(),
});
export type ActivityReply = z.output<typeof activityReplySchema>;

const more = { more_starting_after: z.optional(z.string()) };

/** GET /v1/customers/{customerId}/activity and the member activity lists: one page; `more_starting_after` only when `has_more`. */
export const activityListReplySchema = listReply(activityReplySchema, { dataRef: 'data', total: null, hasMore: true, after: more });

/** GET /v1/customers/{customerId}/activities: the same page, with `total` (the events on this page: counting them all would read them all). */
export const activitiesListReplySchema = listReply(activityReplySchema, {
  dataRef: 'data',
  total: z.int().check(z.nonnegative(), z.describe('The events on this page (not every event of the customer: `has_more` says whether more follow)')),
  hasMore: true,
  after: more,
});
