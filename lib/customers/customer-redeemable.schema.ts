import * as z from '../zod.js';
import { stringFilters } from '../filter-conditions.schema.js';
import { queryInt } from '../http/query-params.js';
import { nestFilters } from '../referrals/redeemable-holder.schema.js';

/** The fields a customer's redeemables list filters on (string conditions; `created_at` is not served). */
export const REDEEMABLE_FILTER_FIELDS = ['id', 'redeemable_id', 'redeemable_object', 'holder_role', 'campaign_id', 'campaign_type', 'voucher_type'] as const;
export type RedeemableFilterField = (typeof REDEEMABLE_FILTER_FIELDS)[number];

/** GET /v1/customers/{customerId}/redeemables. */
export const listCustomerRedeemablesQuery = z.preprocess(
  nestFilters,
  z.strictObject({
    limit: z._default(queryInt(1, 100), 10),
    /** `created_at` (the SDK's) sorts as `id`: ids are timed. */
    order: z._default(z.enum(['id', '-id', 'created_at', '-created_at']), 'id'),
    starting_after_id: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    filters: z.optional(stringFilters(REDEEMABLE_FILTER_FIELDS, 1000, 'customer redeemables')),
  }),
);
export type ListCustomerRedeemablesQuery = z.output<typeof listCustomerRedeemablesQuery>;
