import { CAMPAIGN_TYPES } from '../campaigns/campaign.js';
import { dateTime } from '../date-time.schema.js';
import { queryInt } from '../http/query-params.js';
import { refusedField } from '../not-built.schema.js';
import * as z from '../zod.js';

/** An event id of a list page (`more_starting_after`), or any string: one that is no id of ours is refused by the service. */
const eventId = z.string().check(z.minLength(1), z.maxLength(1000));
/** A date-time, or a bare date (its midnight, UTC). */
const date = z.union([
  dateTime,
  z.pipe(
    z.iso.date(),
    z.transform((d: string) => `${d}T00:00:00.000Z`),
  ),
]);
const limit = z._default(queryInt(1, 100), 10);
const createdOrder = z._default(z.enum(['created_at', '-created_at']), '-created_at');
const campaignFilters = {
  campaign_id: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  campaign_type: z.optional(z.enum(CAMPAIGN_TYPES)),
};

/** GET /v1/customers/{customerId}/activity (Voucherify's list-customer-activity query). */
export const customerActivityQuery = z.strictObject({
  limit,
  order: createdOrder,
  starting_after_id: z.optional(eventId),
  start_date: z.optional(date),
  end_date: z.optional(date),
  ...campaignFilters,
  category: z.optional(z.enum(['ACTION', 'EFFECT'])),
  /** Any of the reference's customer event names; one this service never records lists nothing. */
  type: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
});
export type CustomerActivityQuery = z.output<typeof customerActivityQuery>;

/** GET /v1/customers/{customerId}/activities (the deprecated list-customer-activities): `order` by time only (an event never changes: `updated_at` is its creation). */
export const customerActivitiesQuery = z.strictObject({
  limit,
  order: z._default(z.enum(['created_at', '-created_at', 'updated_at', '-updated_at']), '-created_at'),
  starting_after: z.optional(date),
  starting_after_id: z.optional(eventId),
  ...campaignFilters,
  product_id: refusedField('activity is not indexed by product; a filtered list would show what the filter excludes'),
  start_date: z.optional(date),
  end_date: z.optional(date),
});
export type CustomerActivitiesQuery = z.output<typeof customerActivitiesQuery>;

/** GET /v1/loyalties[/{campaignId}]/members/{memberId}/activity (list-member-activity). */
export const memberActivityQuery = z.strictObject({
  limit,
  order: createdOrder,
  starting_after_id: z.optional(eventId),
});
export type MemberActivityQuery = z.output<typeof memberActivityQuery>;
