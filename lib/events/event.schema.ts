import * as z from '../zod.js';
import { metadataSchema } from '../metadata.schema.js';
import { storableNumbers } from '../db/storable.js';
import { customerInput } from '../customers/customer.schema.js';
import { eventName } from '../custom-event-schemas/event-schema.schema.js';

const code = z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(1000));

/** POST /v1/events (spec): the event name, its customer, optional referral and loyalty, metadata. */
export const trackEventBody = z.strictObject({
  event: eventName,
  customer: customerInput,
  referral: z.optional(z.strictObject({ code, referrer_id: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))) })),
  loyalty: z.optional(z.strictObject({ code })),
  metadata: z.optional(metadataSchema.check(z.superRefine(storableNumbers))),
});
export type TrackEventBody = z.output<typeof trackEventBody>;
