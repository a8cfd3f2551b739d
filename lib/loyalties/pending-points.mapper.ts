import type * as z from '../zod.js';
import type { PendingPoints } from './pending-points.js';
import type {
  pendingActivationReplySchema,
  pendingAdjustmentReplySchema,
  pendingPointsListReplySchema,
  pendingPointsReplySchema,
} from './pending-points.reply.js';
import type { Activation, PendingAdjustment, PendingPointsPage } from './pending-points.service.js';

/** The reference's pending points entry. */
export const toPendingPointsReply = (p: PendingPoints): z.input<typeof pendingPointsReplySchema> => ({
  id: p.id,
  voucher_id: p.voucherId,
  campaign_id: p.campaignId,
  customer_id: p.customerId,
  order_id: p.orderId,
  points: p.points,
  activates_at: p.activatesAt,
  details: {
    event: {
      id: p.details.event.id,
      type: 'customer.order.paid',
      entity_id: p.details.event.entityId,
      created_at: p.details.event.createdAt,
      category: 'EFFECT',
    },
    earning_rule: p.details.earningRule,
    order: { id: p.details.order.id, source_id: p.details.order.sourceId },
  },
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

export const toPendingPointsListReply = (page: PendingPointsPage): z.input<typeof pendingPointsListReplySchema> => {
  const last = page.entries.at(-1);
  return {
    object: 'list',
    data_ref: 'data',
    data: page.entries.map(toPendingPointsReply),
    has_more: page.hasMore,
    ...(page.hasMore && last ? { more_starting_after: last.id } : {}),
  };
};

export const toPendingActivationReply = (a: Activation): z.input<typeof pendingActivationReplySchema> => ({
  points: a.points,
  total: a.total,
  balance: a.balance,
  type: 'loyalty_card',
  object: 'balance',
  related_object: { type: 'voucher', id: a.voucherId },
  operation_type: 'MANUAL',
});

export const toPendingAdjustmentReply = (a: PendingAdjustment): z.input<typeof pendingAdjustmentReplySchema> => ({
  points: a.points,
  total: a.total,
  object: 'balance',
  related_object: { type: 'voucher', id: a.voucherId },
  operation_type: 'MANUAL',
});
