import * as z from '../zod.js';
import { dateTime } from '../date-time.schema.js';
import { stringFilters } from '../filter-conditions.schema.js';
import { nestQuery, queryInt } from '../http/query-params.js';

/** The orders the reference lists (`ParameterOrderVouchers`); which of them are served is listVouchers' rule. */
export const VOUCHER_ORDERS = ['created_at', '-created_at', 'updated_at', '-updated_at', 'code', '-code'] as const;

const ref = z.string().check(z.minLength(1), z.maxLength(1500));

/**
 * The query of GET /v1/vouchers without `filters` (list-members takes it too). The date bounds are named as Voucherify's SDK writes `{created_at: {before}}`
 * (`created_at[before]`), as GET /v1/customers takes them. Which parameters may go together, and
 * which the stored indexes cannot serve, is listVouchers' rule (lib/vouchers/voucher-list.service.ts).
 */
export const listVouchersPlainQuery = z.strictObject({
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

/** The fields of `filters[…]` served here: those a plain parameter (an index) or the code's key can answer. */
export const VOUCHER_FILTER_FIELDS = ['code', 'categories', 'category_ids', 'campaign', 'campaign_id', 'holder_id'] as const;
export type VoucherFilterField = (typeof VOUCHER_FILTER_FIELDS)[number];

const isFilterKey = (key: string) => key === 'filters' || key.startsWith('filters[');

/**
 * GET /v1/vouchers: the plain parameters, and Voucherify's `filters[<field>][conditions][<operator>]`
 * read as an object (nestQuery; the other bracketed names stay as they are). Which filters are
 * served is listVouchers' rule.
 */
export const listVouchersQuery = z.preprocess(
  (q) => {
    const flat = q as Record<string, string>;
    const filters = Object.entries(flat).filter(([k]) => isFilterKey(k));
    if (filters.length === 0) return q;
    return { ...Object.fromEntries(Object.entries(flat).filter(([k]) => !isFilterKey(k))), ...nestQuery(Object.fromEntries(filters)) };
  },
  z.extend(listVouchersPlainQuery, { filters: z.optional(stringFilters(VOUCHER_FILTER_FIELDS, 1500, 'vouchers')) }),
);
export type ListVouchersQuery = z.output<typeof listVouchersQuery>;
