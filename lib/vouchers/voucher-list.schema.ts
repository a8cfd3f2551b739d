import * as z from '../zod.js';
import { dateTime } from '../date-time.schema.js';
import { queryInt } from '../http/query-params.js';

/** The orders the reference lists (`ParameterOrderVouchers`); which of them are served is listVouchers' rule. */
export const VOUCHER_ORDERS = ['created_at', '-created_at', 'updated_at', '-updated_at', 'code', '-code'] as const;

const ref = z.string().check(z.minLength(1), z.maxLength(1500));

/**
 * GET /v1/vouchers. The date bounds are named as Voucherify's SDK writes `{created_at: {before}}`
 * (`created_at[before]`), as GET /v1/customers takes them. Which parameters may go together, and
 * which the stored indexes cannot serve, is listVouchers' rule (lib/vouchers/voucher-list.service.ts).
 */
export const listVouchersQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 99), 1),
  campaign_id: z.optional(ref),
  campaign: z.optional(ref),
  customer: z.optional(ref),
  category: z.optional(ref),
  code: z.optional(ref),
  /** Voucher ids, comma-separated (API Gateway joins a repeated `ids=` so), at most 100. */
  ids: z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((s: string) => s.split(',')),
      ),
      z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.minLength(1), z.maxLength(100)),
    ),
  ),
  'created_at[before]': z.optional(dateTime),
  'created_at[after]': z.optional(dateTime),
  'updated_at[before]': z.optional(dateTime),
  'updated_at[after]': z.optional(dateTime),
  /** Absent: newest first, by last change when `updated_at[…]` is given (without `created_at[…]`), else by creation (planVoucherList). */
  order: z.optional(z.enum(VOUCHER_ORDERS)),
});
export type ListVouchersQuery = z.output<typeof listVouchersQuery>;
