import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { POINTS_TRANSACTION_TYPES } from '../loyalties/card-transaction.js';

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

const idType = z.strictObject({ id: z.string(), type: z.string() });
const idName = z.strictObject({ id: z.string(), name: z.string() });

/**
 * One voucher transaction (Voucherify's VoucherTransaction / LoyaltyCardTransaction): a change of
 * a card's points or credits, with the balance after it and, in `details`, what it concerns (the
 * event and earning rule of an accrual; the order, redemption, rollback or reward of a spend or refund).
 */
export const voucherTransactionReplySchema = z.strictObject({
  id: z.string(),
  source_id: z.nullable(z.string()),
  voucher_id: z.string(),
  campaign_id: z.nullable(z.string()),
  source: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  type: z.enum([...POINTS_TRANSACTION_TYPES, 'CREDITS_ADDITION', 'CREDITS_REMOVAL']),
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
    event: z.optional(idType),
    custom_event: z.optional(idType),
    event_schema: z.optional(idName),
    earning_rule: z.optional(z.strictObject({ id: z.string(), source: z.strictObject({ banner: z.string() }) })),
    order: z.optional(z.strictObject({ id: z.string(), source_id: z.nullable(z.string()) })),
    redemption: z.optional(z.strictObject({ id: z.string() })),
    rollback: z.optional(z.strictObject({ id: z.string() })),
    reward: z.optional(idName),
  }),
  related_transaction_id: z.nullable(z.string()),
  created_at: z.iso.datetime(),
});

/** GET /v1/vouchers/{code}/transactions (and the loyalty card and campaign transaction lists): one page, `more_starting_after` naming the cursor of the next. */
export const voucherTransactionListReplySchema = listReply(voucherTransactionReplySchema, {
  dataRef: 'data',
  total: null,
  hasMore: true,
  after: { more_starting_after: z.optional(z.string()) },
});
