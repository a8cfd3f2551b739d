import * as z from '../zod.js';

/*
 * Reply schemas of the voucher balance endpoints (lib/vouchers/voucher-balance.mapper.ts writes
 * these shapes). Only the OpenAPI generator and the tests import this module.
 */

const relatedVoucher = z.strictObject({ type: z.literal('voucher'), id: z.string() });
const balanceType = z.enum(['gift_voucher', 'loyalty_card']);

/** A gift or loyalty card's balance after a manual change (Voucherify's VouchersBalanceUpdateResponseBody). */
export const voucherBalanceReplySchema = z.strictObject({
  amount: z.int(),
  total: z.int(),
  balance: z.int().check(z.nonnegative()),
  type: balanceType,
  operation_type: z.literal('MANUAL'),
  object: z.literal('balance'),
  related_object: relatedVoucher,
});

/** One voucher transaction (Voucherify's VoucherTransaction): a manual change, with the balance after it. */
export const voucherTransactionReplySchema = z.strictObject({
  id: z.string(),
  source_id: z.nullable(z.string()),
  voucher_id: z.string(),
  campaign_id: z.nullable(z.string()),
  source: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  type: z.enum(['CREDITS_ADDITION', 'CREDITS_REMOVAL', 'POINTS_ADDITION', 'POINTS_REMOVAL', 'POINTS_REDEMPTION', 'POINTS_REFUND']),
  details: z.strictObject({
    balance: z.strictObject({
      type: balanceType,
      total: z.int(),
      amount: z.optional(z.int()),
      points: z.optional(z.int()),
      balance: z.int(),
      object: z.literal('balance'),
      operation_type: z.enum(['MANUAL', 'AUTOMATIC']),
      related_object: relatedVoucher,
    }),
  }),
  related_transaction_id: z.nullable(z.string()),
  created_at: z.iso.datetime(),
});

/** GET /v1/vouchers/{code}/transactions: one page, `more_starting_after` naming the cursor of the next. */
export const voucherTransactionListReplySchema = z.strictObject({
  object: z.literal('list'),
  data_ref: z.literal('data'),
  data: z.array(voucherTransactionReplySchema),
  has_more: z.boolean(),
  more_starting_after: z.optional(z.string()),
});
