import { customerInput } from '../customers/customer.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { MAX_ORDER_ITEMS, orderItemInput } from '../orders/order.schema.js';
import * as z from '../zod.js';

const ref = z.string().check(z.minLength(1), z.maxLength(1000));

/**
 * POST /v1/loyalties/{campaignId}/qualifications (estimate-points): the customer whose card's tier
 * applies, and the order: inline (`amount`, `items`, `metadata`), or a stored one by `id` or `source_id`.
 */
export const estimatePointsBody = z.strictObject({
  customer: z.optional(customerInput),
  order: z.optional(
    z.strictObject({
      id: z.optional(ref),
      source_id: z.optional(ref),
      amount: z.optional(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))),
      items: z.optional(z.array(orderItemInput).check(z.maxLength(MAX_ORDER_ITEMS))),
      metadata: z.optional(metadataSchema),
    }),
  ),
});
export type EstimatePointsBody = z.output<typeof estimatePointsBody>;
