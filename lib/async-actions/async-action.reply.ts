import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/** Voucherify's async action object (lib/async-actions/async-action.mapper.ts); not imported by handlers. */
export const asyncActionReplySchema = z.strictObject({
  id: z.string(),
  type: z.enum([
    'CAMPAIGN.VOUCHERS_GENERATE',
    'CAMPAIGN.VOUCHERS_IMPORT',
    'VOUCHERS.IMPORT',
    'CAMPAIGN.VOUCHERS_DELETE',
    'CAMPAIGN.VOUCHERS_UPDATE',
    'VOUCHERS.IMPORT_CSV',
    'CAMPAIGN.VOUCHERS_IMPORT_CSV',
    'VOUCHERS.BULK_UPDATE',
    'VOUCHERS.METADATA_UPDATE',
    'PRODUCTS.IMPORT_CSV',
    'SKUS.IMPORT_CSV',
    'CUSTOMERS.IMPORT_CSV',
    'PRODUCTS.BULK_UPDATE',
    'PRODUCTS.METADATA_UPDATE',
    'CUSTOMERS.BULK_UPDATE',
    'CUSTOMERS.METADATA_UPDATE',
    'ORDERS.IMPORT',
  ]),
  status: z.enum(['ENQUEUED', 'IN_PROGRESS', 'DONE', 'FAILED']),
  operation_status: z.enum(['SUCCESS', 'FAILED', 'UNKNOWN']),
  // An import's result also lists the vouchers it could not write (`failed`, `failed_count`).
  result: z.optional(
    z.strictObject({
      message: z.string(),
      done_count: z.int().check(z.nonnegative()),
      failed_count: z.optional(z.int().check(z.nonnegative())),
      failed: z.optional(z.array(z.strictObject({ code: z.string(), reason: z.string(), line: z.optional(z.int().check(z.positive())) }))),
    }),
  ),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  request_id: z.string(),
  processing_time: z.optional(z.int().check(z.nonnegative())),
  progress: z.int().check(z.minimum(0), z.maximum(100)),
  object: z.literal('async_action'),
});
export type AsyncActionReply = z.output<typeof asyncActionReplySchema>;

/** One action of GET /v1/async-actions: the object without `result` (the reference's list leaves it out: GET the action for it). */
export const asyncActionListItemSchema = z.strictObject({ ...asyncActionReplySchema.shape, result: z.optional(z.never()) });

/** GET /v1/async-actions (Voucherify's AsyncActionsListResponseBody). */
export const asyncActionListReplySchema = listReply(asyncActionListItemSchema, { dataRef: 'async_actions', total: null, hasMore: true });
export type AsyncActionListReply = z.output<typeof asyncActionListReplySchema>;
