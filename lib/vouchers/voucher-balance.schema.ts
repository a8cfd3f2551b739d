import * as z from '../zod.js';
import { queryInt } from '../http/query-params.js';

const MAX_AMOUNT = 1_000_000_000;

/** POST /v1/vouchers/{code}/balance (Voucherify's VouchersBalanceUpdateRequestBody): credits (gift card) or points (loyalty card), never 0. */
export const voucherBalanceBody = z.strictObject({
  amount: z.int().check(
    z.minimum(-MAX_AMOUNT),
    z.maximum(MAX_AMOUNT),
    z.refine((a) => a !== 0, 'must not be 0'),
  ),
  source_id: z.optional(z.string().check(z.maxLength(1000))),
  reason: z.optional(z.string().check(z.maxLength(1000))),
});
export type VoucherBalanceBody = z.output<typeof voucherBalanceBody>;

/** GET /v1/vouchers/{code}/transactions: `order` by id (creation), newest first unless `id`. */
export const voucherTransactionsQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  order: z._default(z.enum(['id', '-id']), '-id'),
  starting_after_id: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});
export type VoucherTransactionsQuery = z.output<typeof voucherTransactionsQuery>;
