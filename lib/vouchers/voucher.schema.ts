import * as z from '../zod.js';
import { queryInt } from '../http/query-params.js';
import { codeConfigSchema, redemptionSchema } from './code-config.schema.js';
import { dateTime } from '../date-time.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { newCodeSchema } from './voucher-params.schema.js';
import { discountSchema, validityDayOfWeekSchema, validityHoursSchema, validityTimeframeSchema } from '../campaigns/voucher-template.schema.js';

/** Upper bound of `vouchers_count` on POST /v1/campaigns/{campaignId}/vouchers. */
export const MAX_VOUCHERS_PER_REQUEST = 100_000;

export const addVouchersQuery = z.strictObject({ vouchers_count: z.optional(queryInt(1, MAX_VOUCHERS_PER_REQUEST)) });

/** POST /v1/campaigns/{campaignId}/vouchers: the spec's fields, nothing else. */
export const addVouchersBody = z
  .strictObject({
    code: z.optional(newCodeSchema),
    code_config: z.optional(codeConfigSchema),
    category: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    category_id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    metadata: z.optional(metadataSchema),
    redemption: z.optional(redemptionSchema),
    additional_info: z.optional(z.string().check(z.maxLength(1000))),
    start_date: z.optional(dateTime),
    expiration_date: z.optional(dateTime),
  })
  .check(
    z.refine((b) => !(b.category !== undefined && b.category_id !== undefined), {
      message: 'pass either category or category_id, not both',
      path: ['category_id'],
    }),
    z.refine((b) => !(b.code !== undefined && b.code_config !== undefined), {
      message: 'pass either code or code_config, not both',
      path: ['code_config'],
    }),
    z.refine((b) => !b.start_date || !b.expiration_date || b.start_date <= b.expiration_date, {
      message: 'must not be before start_date',
      path: ['expiration_date'],
    }),
  );
export type AddVouchersBody = z.output<typeof addVouchersBody>;

/**
 * PUT /v1/vouchers/{code}: what the reference lets a voucher change (VoucherUpdateBase), plus a gift
 * card's `gift.amount`, and a discount voucher's `discount` (`type` only names the kind). A field left out keeps its value; a nullable one sent as null is cleared.
 */
export const updateVoucherBody = z
  .strictObject({
    // The SDK sends the voucher's own code in the body; it names the voucher, it never renames it.
    code: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
    category: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    category_id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    start_date: z.optional(z.nullable(dateTime)),
    expiration_date: z.optional(z.nullable(dateTime)),
    validity_timeframe: z.optional(z.nullable(validityTimeframeSchema)),
    validity_day_of_week: z.optional(z.nullable(validityDayOfWeekSchema)),
    validity_hours: z.optional(z.nullable(validityHoursSchema)),
    active: z.optional(z.boolean()),
    additional_info: z.optional(z.nullable(z.string().check(z.maxLength(1000)))),
    metadata: z.optional(metadataSchema),
    gift: z.optional(z.strictObject({ amount: z.int().check(z.minimum(0), z.maximum(1_000_000_000)) })),
    type: z.optional(z.literal('DISCOUNT_VOUCHER')),
    discount: z.optional(discountSchema),
  })
  .check(
    z.refine((b) => !(b.category !== undefined && b.category_id !== undefined), {
      message: 'pass either category or category_id, not both',
      path: ['category_id'],
    }),
    z.refine((b) => !b.start_date || !b.expiration_date || b.start_date <= b.expiration_date, {
      message: 'must not be before start_date',
      path: ['expiration_date'],
    }),
  );
export type UpdateVoucherBody = z.output<typeof updateVoucherBody>;
