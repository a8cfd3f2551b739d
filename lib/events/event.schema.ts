import * as z from '../zod.js';
import { metadataSchema } from '../metadata.schema.js';
import { storableNumbers } from '../db/storable.js';
import { customerInput } from '../customers/customer.schema.js';
import { eventName } from '../custom-event-schemas/event-schema.schema.js';

const code = z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(1000));

/** POST /v1/events (spec): the event name, its customer, optional referral and loyalty, metadata. */
export const trackEventBody = z.strictObject({
  event: eventName,
  // The reference's prose: an event's customer is named by `source_id` or `id` (an anonymous one could earn nothing it could find again).
  customer: z.pipe(
    customerInput,
    z.custom<z.output<typeof customerInput>>((c) => c.id !== undefined || c.source_id !== undefined, {
      message: 'must have source_id (or the id of an existing customer)',
    }),
  ),
  referral: z.optional(z.strictObject({ code, referrer_id: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))) })),
  loyalty: z.optional(z.strictObject({ code })),
  metadata: z.optional(metadataSchema.check(z.superRefine(storableNumbers))),
});
export type TrackEventBody = z.output<typeof trackEventBody>;
