import { toVoucherReply } from '../vouchers/voucher.mapper.js';
import type { CustomerRedeemableListReply, CustomerRedeemableReply } from './customer-redeemable.reply.js';
import type { CustomerRedeemable, CustomerRedeemablePage } from './customer-redeemable.service.js';

export const toCustomerRedeemableReply = ({ holding: h, voucher, status }: CustomerRedeemable): CustomerRedeemableReply => ({
  id: h.id,
  created_at: h.createdAt,
  redeemable_id: h.voucherId,
  redeemable_object: 'voucher',
  customer_id: h.customerId,
  holder_role: h.role,
  campaign_id: h.campaignId,
  campaign_type: h.campaignType,
  voucher_type: h.voucherType,
  redeemable: { type: 'voucher', voucher: toVoucherReply(voucher), status },
});

export function toCustomerRedeemableListReply(p: CustomerRedeemablePage): CustomerRedeemableListReply {
  const last = p.redeemables.at(-1);
  return {
    object: 'list',
    data_ref: 'data',
    data: p.redeemables.map(toCustomerRedeemableReply),
    total: p.total,
    has_more: p.hasMore,
    ...(p.hasMore && last ? { more_starting_after: last.holding.id } : {}),
  };
}
