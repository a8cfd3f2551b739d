import { countReply, listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/** Voucherify's `redeemable_holder` (lib/referrals/redeemable-holder.mapper.ts); not imported by handlers. */
export const redeemableHolderReplySchema = z.strictObject({
  id: z.string(),
  created_at: z.iso.datetime(),
  redeemable_id: z.string(),
  redeemable_object: z.literal('voucher'),
  campaign_id: z.nullable(z.string()),
  campaign_type: z.nullable(z.enum(['LOYALTY_PROGRAM', 'GIFT_VOUCHERS', 'DISCOUNT_COUPONS', 'PROMOTION', 'REFERRAL_PROGRAM'])),
  voucher_type: z.enum(['GIFT_VOUCHER', 'DISCOUNT_VOUCHER', 'LOYALTY_CARD']),
  customer_id: z.string(),
  holder_role: z.enum(['OWNER', 'REFERRER', 'REFEREE']),
  object: z.literal('redeemable_holder'),
  metadata: z.optional(z.record(z.string(), z.unknown())),
});
export type RedeemableHolderReply = z.output<typeof redeemableHolderReplySchema>;

/** POST …/holders: the referees added. */
export const redeemableHoldersAddedReplySchema = z.strictObject({ holders: z.array(redeemableHolderReplySchema) });
export type RedeemableHoldersAddedReply = z.output<typeof redeemableHoldersAddedReplySchema>;

/** GET …/holders: one page; `more_starting_after` only when `has_more`. */
export const redeemableHolderListReplySchema = listReply(redeemableHolderReplySchema, {
  dataRef: 'data',
  total: countReply,
  hasMore: true,
  after: { more_starting_after: z.optional(z.string()) },
});
export type RedeemableHolderListReply = z.output<typeof redeemableHolderListReplySchema>;
