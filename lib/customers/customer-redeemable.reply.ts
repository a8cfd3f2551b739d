import { countReply, listReply } from '../openapi/list-reply.js';
import { voucherReplySchema } from '../vouchers/voucher.reply.js';
import * as z from '../zod.js';

/** Voucherify's CustomerRedeemable (lib/customers/customer-redeemable.mapper.ts); not imported by handlers. */
export const customerRedeemableReplySchema = z.strictObject({
  id: z.string(),
  created_at: z.iso.datetime(),
  redeemable_id: z.string(),
  redeemable_object: z.literal('voucher'),
  customer_id: z.string(),
  holder_role: z.enum(['OWNER', 'REFERRER', 'REFEREE']),
  campaign_id: z.nullable(z.string()),
  campaign_type: z.nullable(z.enum(['LOYALTY_PROGRAM', 'GIFT_VOUCHERS', 'DISCOUNT_COUPONS', 'PROMOTION', 'REFERRAL_PROGRAM'])),
  voucher_type: z.enum(['GIFT_VOUCHER', 'DISCOUNT_VOUCHER', 'LOYALTY_CARD']),
  redeemable: z.strictObject({
    type: z.literal('voucher'),
    voucher: voucherReplySchema,
    status: z.enum(['ACTIVE', 'USED', 'DISABLED', 'NOT_ACTIVE_YET', 'EXPIRED', 'NO_BALANCE']),
  }),
});
export type CustomerRedeemableReply = z.output<typeof customerRedeemableReplySchema>;

/** GET /v1/customers/{customerId}/redeemables: one page; `more_starting_after` only when `has_more`. */
export const customerRedeemableListReplySchema = listReply(customerRedeemableReplySchema, {
  dataRef: 'data',
  total: countReply,
  hasMore: true,
  after: { more_starting_after: z.optional(z.string()) },
});
export type CustomerRedeemableListReply = z.output<typeof customerRedeemableListReplySchema>;
