import { orderFiguresReplyFields, productReply, skuReply } from '../orders/order.reply.js';
import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { discountSchema } from '../campaigns/voucher-template.schema.js';
import { categoryReplySchema } from '../categories/category.reply.js';
import { ORDER_STATUSES } from '../orders/order.js';
import { SORTING_RULES } from '../redemptions/stacking-order.js';
import { SESSION_TTL_UNITS } from '../redemptions/session-lock.js';
import { REDEEMABLE_ERROR_KEYS } from './redeemable-error.js';
import { APPLICATION_MODES } from './stacking-rules.js';

/*
 * Reply schemas of POST /v1/validations (lib/validations/validation.mapper.ts writes them) and of
 * the project's stacking rules. Only the OpenAPI generator and the tests import this module.
 */

const amount = z.int().check(z.nonnegative());
const metadata = z.record(z.string(), z.unknown());
const categoryIds = z.array(z.string());

/** The reference's StackingRules, every member present. */
export const stackingRulesReplySchema = z.strictObject({
  redeemables_limit: z.int().check(z.minimum(1), z.maximum(30)),
  applicable_redeemables_limit: z.int().check(z.minimum(1), z.maximum(30)),
  applicable_redeemables_per_category_limit: z.int().check(z.minimum(1), z.maximum(30)),
  applicable_redeemables_category_limits: z.record(z.string(), z.int().check(z.minimum(1), z.maximum(10))),
  applicable_exclusive_redeemables_limit: z.int().check(z.minimum(1), z.maximum(5)),
  applicable_exclusive_redeemables_per_category_limit: z.int().check(z.minimum(1), z.maximum(5)),
  exclusive_categories: categoryIds,
  joint_categories: categoryIds,
  redeemables_application_mode: z.enum(APPLICATION_MODES),
  redeemables_sorting_rule: z.enum(SORTING_RULES),
  redeemables_products_application_mode: z.enum(['STACK', 'ONCE']),
  redeemables_no_effect_rule: z.enum(['REDEEM_ANYWAY', 'SKIP']),
  no_effect_skip_categories: categoryIds,
  no_effect_redeem_anyway_categories: categoryIds,
  redeemables_rollback_order_mode: z.enum(['WITH_ORDER', 'WITHOUT_ORDER']),
});

/** One line of the order after the discounts (the reference's OrderCalculatedItem). */
const calculatedItemReply = z.strictObject({
  sku_id: z.optional(z.string()),
  product_id: z.optional(z.string()),
  related_object: z.optional(z.enum(['product', 'sku'])),
  source_id: z.optional(z.string()),
  quantity: amount,
  initial_quantity: amount,
  discount_quantity: amount,
  applied_discount_quantity: amount,
  applied_quantity: amount,
  applied_quantity_amount: amount,
  price: amount,
  amount,
  initial_amount: amount,
  discount_amount: amount,
  applied_discount_amount: amount,
  subtotal_amount: amount,
  product: z.optional(productReply),
  sku: z.optional(skuReply),
  metadata: z.optional(metadata),
  object: z.literal('order_item'),
});

/** The order with its figures after the discounts (the reference's OrderCalculated); `id` once stored. */
export const calculatedOrderReplySchema = z.strictObject({
  id: z.optional(z.string()),
  source_id: z.nullable(z.string()),
  status: z.enum(ORDER_STATUSES),
  ...orderFiguresReplyFields,
  items: z.array(calculatedItemReply),
  metadata,
  customer_id: z.nullable(z.string()),
  referrer_id: z.nullable(z.string()),
  object: z.literal('order'),
});

/** `applicable_to` and `inapplicable_to`: the products a redeemable applies to (always empty lists here). */
export const applicableToListReplySchema = listReply(z.strictObject({ object: z.enum(['product', 'sku', 'products_collection']), id: z.string() }), {
  dataRef: 'data',
  total: amount,
});

const category = z.strictObject({ ...categoryReplySchema.shape, stacking_rules_type: z.optional(z.enum(['JOINT', 'EXCLUSIVE'])) });

const common = {
  id: z.string(),
  object: z.enum(['voucher', 'promotion_tier']),
  metadata: z.optional(metadata),
  categories: z.array(category),
  campaign_name: z.optional(z.string()),
  campaign_id: z.optional(z.string()),
  name: z.optional(z.string()),
};

const applicable = z.strictObject({
  status: z.literal('APPLICABLE'),
  ...common,
  order: calculatedOrderReplySchema,
  applicable_to: applicableToListReplySchema,
  inapplicable_to: applicableToListReplySchema,
  result: z.strictObject({
    discount: z.optional(discountSchema),
    gift: z.optional(z.strictObject({ balance: amount, credits: amount })),
  }),
});

export const redeemableErrorReplySchema = z.strictObject({
  code: z.int(),
  key: z.enum(REDEEMABLE_ERROR_KEYS),
  message: z.string(),
  details: z.string(),
  request_id: z.optional(z.string()),
  resource_id: z.string(),
  resource_type: z.enum(['voucher', 'promotion_tier']),
  error: z.strictObject({ message: z.string() }),
});

export const inapplicableRedeemableReplySchema = z.strictObject({
  status: z.literal('INAPPLICABLE'),
  ...common,
  result: z.strictObject({ error: redeemableErrorReplySchema, details: z.strictObject({ key: z.string(), message: z.string() }) }),
});

export const skippedRedeemableReplySchema = z.strictObject({
  status: z.literal('SKIPPED'),
  ...common,
  result: z.strictObject({
    details: z.strictObject({
      key: z.enum([
        'applicable_redeemables_limit_exceeded',
        'applicable_exclusive_redeemables_limit_exceeded',
        'applicable_redeemables_per_category_limit_exceeded',
        'exclusion_rules_not_met',
        'preceding_validation_failed',
      ]),
      message: z.string(),
    }),
  }),
});

/** POST /v1/validations (the reference's ValidationsValidateResponseBody). */
export const stackedValidationReplySchema = z.strictObject({
  valid: z.boolean(),
  redeemables: z.array(z.discriminatedUnion('status', [applicable, inapplicableRedeemableReplySchema, skippedRedeemableReplySchema])),
  // Left out when empty, as in the reference's examples.
  inapplicable_redeemables: z.optional(z.array(inapplicableRedeemableReplySchema)),
  skipped_redeemables: z.optional(z.array(skippedRedeemableReplySchema)),
  order: calculatedOrderReplySchema,
  tracking_id: z.optional(z.string()),
  session: z.optional(
    z.strictObject({
      type: z.literal('LOCK'),
      key: z.string(),
      ttl: z.number(),
      ttl_unit: z.enum(Object.keys(SESSION_TTL_UNITS) as [keyof typeof SESSION_TTL_UNITS, ...(keyof typeof SESSION_TTL_UNITS)[]]),
    }),
  ),
  stacking_rules: stackingRulesReplySchema,
});

/** GET and PUT /v1/stacking-rules: the project's rules, and when they were last set (null: never, the defaults). */
export const projectStackingRulesReplySchema = z.strictObject({
  ...stackingRulesReplySchema.shape,
  object: z.literal('stacking_rules'),
  updated_at: z.nullable(z.iso.datetime()),
});
