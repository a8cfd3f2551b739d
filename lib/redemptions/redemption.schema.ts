import * as z from '../zod.js';
import { customerInput } from '../customers/customer.schema.js';
import { dateTime } from '../date-time.schema.js';
import { stringFilters } from '../filter-conditions.schema.js';
import { nestQuery, queryInt } from '../http/query-params.js';
import { metadataSchema } from '../metadata.schema.js';
import { REDEMPTION_FILTER_FIELDS } from './redemption.js';

const id = z.string().check(z.minLength(1), z.maxLength(1000));
const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

/** GET /v1/redemptions/{redemptionId}, POST …/rollback. */
export const redemptionParams = z.strictObject({ redemptionId: id });
/**
 * POST /v1/redemptions/{redemptionId}/rollbacks: the reference names the parameter `parentRedemptionId`, but API Gateway
 * allows one variable name per path level, and /v1/redemptions/{redemptionId} has it (the name is not on the wire).
 */
export const parentRedemptionParams = z.strictObject({ redemptionId: id });

/** The orders GET /v1/redemptions offers (`-` = descending). */
export const REDEMPTION_LIST_ORDERS = ['created_at', '-created_at'] as const;

/**
 * GET /v1/redemptions. `created_at[before]`/`[after]` and `filters[…]` are read as objects first
 * (nestQuery), as Voucherify's SDK writes them. `voucher` (a code or id) is this service's addition:
 * the reference's `filters[voucher_code]` in a plain parameter. Which filters are served, and how,
 * is listRedemptions' rule.
 */
export const listRedemptionsQuery = z.preprocess(
  (q) => nestQuery(q as Record<string, string>),
  z.strictObject({
    limit: z._default(queryInt(1, 100), 10),
    page: z._default(queryInt(1, 99), 1),
    order: z._default(z.enum(REDEMPTION_LIST_ORDERS), '-created_at'),
    result: z.optional(text(100)),
    campaign: z.optional(text(1000)),
    customer: z.optional(id),
    voucher: z.optional(id),
    created_at: z.optional(z.strictObject({ before: z.optional(dateTime), after: z.optional(dateTime) })),
    filters: z.optional(stringFilters(REDEMPTION_FILTER_FIELDS, 1500, 'redemptions')),
  }),
);
export type ListRedemptionsQuery = z.output<typeof listRedemptionsQuery>;

/** The query of both rollback routes. */
export const rollbackQuery = z.strictObject({ reason: z.optional(text(1000)), tracking_id: z.optional(text(1000)) });
export type RollbackQuery = z.output<typeof rollbackQuery>;

/**
 * The body of both rollback routes: the reference's reason, tracking id, customer (upserted as an
 * order's is) and the rollback's metadata. `order` is refused: a rollback updates the redemption's own
 * order (docs/decisions.md "Rollbacks").
 */
export const rollbackBody = z.strictObject({
  reason: z.optional(text(1000)),
  tracking_id: z.optional(text(1000)),
  customer: z.optional(customerInput),
  metadata: z.optional(metadataSchema),
});
export type RollbackBody = z.output<typeof rollbackBody>;
