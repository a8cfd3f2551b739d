import type { Holding } from './redeemable-holder.js';
import type { HolderPage } from './redeemable-holder.service.js';
import type { RedeemableHolderListReply, RedeemableHolderReply, RedeemableHoldersAddedReply } from './redeemable-holder.reply.js';

/** A holding as Voucherify's `redeemable_holder`: `metadata` only on a referee. */
export const toRedeemableHolderReply = (h: Holding): RedeemableHolderReply => ({
  id: h.id,
  created_at: h.createdAt,
  redeemable_id: h.voucherId,
  redeemable_object: 'voucher',
  campaign_id: h.campaignId,
  campaign_type: h.campaignType,
  voucher_type: h.voucherType,
  customer_id: h.customerId,
  holder_role: h.role,
  object: 'redeemable_holder',
  ...(h.metadata !== null ? { metadata: h.metadata } : {}),
});

export const toHoldersAddedReply = (holdings: Holding[]): RedeemableHoldersAddedReply => ({ holders: holdings.map(toRedeemableHolderReply) });

export function toHolderListReply(p: HolderPage): RedeemableHolderListReply {
  const last = p.holdings.at(-1);
  return {
    object: 'list',
    data_ref: 'data',
    data: p.holdings.map(toRedeemableHolderReply),
    total: p.total,
    has_more: p.hasMore,
    ...(p.hasMore && last ? { more_starting_after: last.id } : {}),
  };
}
