import type * as z from '../zod.js';
import { type CardTransaction, type CardTransactionDetails, MANUAL_TRANSACTION_TYPES } from '../loyalties/card-transaction.js';
import type { voucherBalanceReplySchema, voucherTransactionListReplySchema, voucherTransactionReplySchema } from './voucher-balance.reply.js';
import type { TransactionPage, VoucherBalanceChange } from './voucher-balance.service.js';

/** Voucherify's balance object after a manual change of a gift card (credits) or a loyalty card (points). */
export const toVoucherBalanceReply = (c: VoucherBalanceChange): z.input<typeof voucherBalanceReplySchema> => ({
  amount: c.points,
  total: c.total,
  balance: c.balance,
  type: c.type ?? 'loyalty_card',
  operation_type: 'MANUAL',
  object: 'balance',
  related_object: { type: 'voucher', id: c.voucherId },
});

const isGift = (t: CardTransaction): boolean => t.type === 'CREDITS_ADDITION' || t.type === 'CREDITS_REMOVAL';

/** `details` besides the balance, snake_case, each only where the transaction has it. */
function detailsReply(d: CardTransactionDetails | undefined) {
  if (!d) return {};
  return {
    ...(d.event ? { event: d.event } : {}),
    ...(d.customEvent ? { custom_event: d.customEvent } : {}),
    ...(d.eventSchema ? { event_schema: d.eventSchema } : {}),
    ...(d.earningRule ? { earning_rule: d.earningRule } : {}),
    ...(d.order ? { order: { id: d.order.id, source_id: d.order.sourceId } } : {}),
    ...(d.redemption ? { redemption: d.redemption } : {}),
    ...(d.rollback ? { rollback: d.rollback } : {}),
    ...(d.reward ? { reward: d.reward } : {}),
  };
}

export const toVoucherTransactionReply = (t: CardTransaction): z.input<typeof voucherTransactionReplySchema> => ({
  id: t.id,
  source_id: t.sourceId,
  voucher_id: t.voucherId,
  campaign_id: t.campaignId,
  source: t.source,
  reason: t.reason,
  type: t.type,
  details: {
    balance: {
      type: isGift(t) ? 'gift_voucher' : 'loyalty_card',
      total: t.total,
      ...(isGift(t) ? { amount: t.points } : { points: t.points }),
      balance: t.balance,
      object: 'balance',
      // A removal the service made itself (an order's take-back) has no `source`: it is AUTOMATIC.
      operation_type: MANUAL_TRANSACTION_TYPES.includes(t.type) && t.source === 'API' ? 'MANUAL' : 'AUTOMATIC',
      related_object: { type: 'voucher', id: t.voucherId },
    },
    ...detailsReply(t.details),
  },
  related_transaction_id: t.relatedTransactionId ?? null,
  created_at: t.createdAt,
});

export const toVoucherTransactionListReply = (p: TransactionPage): z.input<typeof voucherTransactionListReplySchema> => {
  const last = p.transactions.at(-1);
  return {
    object: 'list',
    data_ref: 'data',
    data: p.transactions.map(toVoucherTransactionReply),
    has_more: p.hasMore,
    ...(p.hasMore && last ? { more_starting_after: last.id } : {}),
  };
};
