import type { CustomerErasure } from './customer-erasure.service.js';

/** The wire shape of a permanent deletion (the reference's spelling of `object` included). */
export const toPermanentDeletionReply = (e: CustomerErasure) => ({
  id: e.id,
  created_at: e.createdAt,
  related_object_id: e.customerId,
  related_object: 'customer' as const,
  status: e.status,
  data_json: {
    events: e.counts.events,
    customer_events: e.counts.customerEvents,
    daily_events: e.counts.dailyEvents,
    segments: e.counts.segments,
    orders: e.counts.orders,
    order_events: e.counts.orderEvents,
    customer: e.counts.customer,
  },
  object: 'pernament_deletion' as const,
});
