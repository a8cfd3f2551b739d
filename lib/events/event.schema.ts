import * as z from 'zod';
import { metadataSchema } from '../campaigns/campaign.schema.js';
import { storableNumbers } from '../db/storable.js';
import { customerInput, simpleCustomerReplySchema } from '../customers/customer.schema.js';
import { eventName } from '../event-schemas/event-schema.schema.js';

const code = z.string({ error: 'is required' }).min(1).max(1000);

/** POST /v1/events (spec): the event name, its customer, optional referral and loyalty, metadata. */
export const trackEventBody = z.strictObject({
  event: eventName,
  customer: customerInput,
  referral: z.strictObject({ code, referrer_id: z.string().min(1).max(1000).optional() }).optional(),
  loyalty: z.strictObject({ code }).optional(),
  metadata: metadataSchema.superRefine(storableNumbers).optional(),
});
export type TrackEventBody = z.output<typeof trackEventBody>;

/** The custom event response object of the spec. */
export const eventReplySchema = z.strictObject({
  object: z.literal('event'),
  type: z.string(),
  customer: simpleCustomerReplySchema,
  referral: z.null(),
  loyalty: z.null(),
  metadata: z.record(z.string(), z.unknown()),
});
