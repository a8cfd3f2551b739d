import * as z from '../zod.js';
import { simpleCustomerReplySchema } from '../customers/customer.reply.js';

/** The custom event response object of the spec (lib/events/event.mapper.ts); not imported by handlers. */
export const eventReplySchema = z.strictObject({
  object: z.literal('event'),
  type: z.string(),
  customer: simpleCustomerReplySchema,
  referral: z.null(),
  loyalty: z.null(),
  metadata: z.record(z.string(), z.unknown()),
});
