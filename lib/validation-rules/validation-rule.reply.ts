import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of validation rules and their assignments (validation-rule.mapper.ts writes these
 * shapes). Only the OpenAPI generator and the tests import this module.
 */

const conditionValueReply = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.strictObject({
    id: z.optional(z.string()),
    source_id: z.optional(z.nullable(z.string())),
    object: z.optional(z.string()),
    product_id: z.optional(z.string()),
    product_source_id: z.optional(z.nullable(z.string())),
    effect: z.optional(z.string()),
  }),
]);
const conditionsReply = z.record(z.string(), z.array(conditionValueReply));
const subConditionReply = z.strictObject({
  name: z.string(),
  property: z.nullable(z.string()),
  conditions: conditionsReply,
  rules: z.strictObject({}),
  error: z.optional(z.strictObject({ message: z.string() })),
});
const subRulesReply = z.catchall(z.strictObject({ logic: z.optional(z.string()) }), subConditionReply);
const conditionReply = z.strictObject({
  name: z.string(),
  property: z.nullable(z.string()),
  conditions: conditionsReply,
  rules: subRulesReply,
  error: z.optional(z.strictObject({ message: z.string() })),
});
/** `rules`: `logic` and the numbered conditions as stored. */
const rulesReply = z.catchall(z.strictObject({ logic: z.optional(z.string()) }), conditionReply);

const applicableToEntryReply = z.strictObject({
  object: z.enum(['product', 'sku', 'products_collection']),
  id: z.string(),
  source_id: z.optional(z.nullable(z.string())),
  product_id: z.optional(z.string()),
  product_source_id: z.optional(z.nullable(z.string())),
  effect: z.optional(z.string()),
  quantity_limit: z.optional(z.int()),
  aggregated_quantity_limit: z.optional(z.int()),
  amount_limit: z.optional(z.int()),
  aggregated_amount_limit: z.optional(z.int()),
});

/** The validation rule object. */
export const validationRuleReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  rules: rulesReply,
  bundle_rules: z.strictObject({}),
  error: z.optional(z.strictObject({ message: z.string() })),
  applicable_to: z.strictObject({
    excluded: z.array(applicableToEntryReply),
    included: z.array(applicableToEntryReply),
    included_all: z.boolean(),
  }),
  created_at: z.iso.datetime(),
  updated_at: z.optional(z.iso.datetime()),
  type: z.string(),
  context_type: z.string(),
  assignments_count: z.int().check(z.nonnegative()),
  object: z.literal('validation_rules'),
});
export type ValidationRuleReply = z.output<typeof validationRuleReplySchema>;

/** GET /v1/validation-rules: one page of rules and the number of rules of the project. */
export const validationRuleListReplySchema = listReply(validationRuleReplySchema, { dataRef: 'data' });
export type ValidationRuleListReply = z.output<typeof validationRuleListReplySchema>;

/** A validation rule assignment. */
export const validationRuleAssignmentReplySchema = z.strictObject({
  id: z.string(),
  rule_id: z.string(),
  related_object_id: z.string(),
  related_object_type: z.enum(['voucher', 'campaign', 'promotion_tier', 'earning_rule', 'distribution', 'reward_assignment']),
  created_at: z.iso.datetime(),
  object: z.literal('validation_rules_assignment'),
});
export type ValidationRuleAssignmentReply = z.output<typeof validationRuleAssignmentReplySchema>;

/** A page of assignments and the number of assignments the filter names. */
export const validationRuleAssignmentListReplySchema = listReply(validationRuleAssignmentReplySchema, { dataRef: 'data' });
export type ValidationRuleAssignmentListReply = z.output<typeof validationRuleAssignmentListReplySchema>;
