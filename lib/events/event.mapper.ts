import { toSimpleCustomerReply } from '../customers/customer.mapper.js';
import type { TrackedEvent } from './event.js';

/** The custom event response of the spec: `referral` and `loyalty` are always null in it. */
export const toEventReply = ({ event, customer }: TrackedEvent): Record<string, unknown> => ({
  object: 'event',
  type: event.type,
  customer: toSimpleCustomerReply(customer),
  referral: null,
  loyalty: null,
  metadata: event.metadata,
});
