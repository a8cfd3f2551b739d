import * as z from '../zod.js';
import { stringConditions } from '../filter-conditions.schema.js';
import { nestQuery } from '../http/query-params.js';
import { stackedCustomerField, stackedMetadataField, stackedOrderField } from './validation.schema.js';

/*
 * The legacy POST /v1/promotions/validation (the reference's 6_req_validate_promotion): a cart with
 * no codes, answered with the promotion tiers it qualifies for (lib/validations/legacy-promotions.service.ts).
 */

/** `options.expand` (`category`) is accepted: the tiers are listed with what the engine read. */
export const validatePromotionsBody = z.strictObject({
  customer: stackedCustomerField,
  order: stackedOrderField,
  metadata: stackedMetadataField,
  options: z.optional(z.strictObject({ expand: z.optional(z.array(z.literal('category')).check(z.maxLength(1))) })),
});
export type ValidatePromotionsBody = z.output<typeof validatePromotionsBody>;

/**
 * `audienceRulesOnly=true` judges the customer alone (the tiers evaluated without the order);
 * `filters[promotion_id][conditions][$in|$is]` narrows the tiers to the ids named.
 */
export const validatePromotionsQuery = z.preprocess(
  (q) => nestQuery(q as Record<string, string>),
  z.strictObject({
    audienceRulesOnly: z.optional(z.enum(['true', 'false'])),
    filters: z.optional(
      z.strictObject({
        junction: z.optional(z.enum(['and', 'or', 'AND', 'OR'])),
        promotion_id: z.optional(z.strictObject({ conditions: stringConditions(1000) })),
      }),
    ),
  }),
);
export type ValidatePromotionsQuery = z.output<typeof validatePromotionsQuery>;
