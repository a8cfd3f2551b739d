import { toSimpleCustomerReply } from '../customers/customer.mapper.js';
import type { TrackedEvent } from './event.js';
import type * as z from '../zod.js';
import type { eventReplySchema } from './event.reply.js';

/** The custom event response of the spec: `referral` and `loyalty` are always null in it. */
export const toEventReply = ({ event, customer }: TrackedEvent): z.input<typeof eventReplySchema> => ({
  object: 'event',
  type: event.type,
  customer: toSimpleCustomerReply(customer),
  referral: null,
  loyalty: null,
  metadata: event.metadata,
});
