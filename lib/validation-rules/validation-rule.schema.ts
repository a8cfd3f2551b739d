import { dateTime } from '../date-time.schema.js';
import { isStorableNumber, STORABLE_NUMBER_MESSAGE } from '../db/storable.js';
import { queryBoolean, queryInt } from '../http/query-params.js';
import * as z from '../zod.js';
import { MAX_CONDITIONS_PER_SET } from './rule-evaluation.js';
import { MAX_LOGIC_LENGTH } from './rule-logic.js';
import { ASSIGNABLE_OBJECT_TYPES, VALIDATION_RULE_TYPES } from './validation-rule.js';

/*
 * Requests of the validation rule endpoints. The shape is checked here (types, lengths, numbers the
 * table can store); what a rule means (supported names, operators, logic) is checked by
 * compileRuleSet, which answers 400 `invalid_validation_rules` naming the condition.
 */

/** Serialized size limit of a rule's `rules` and `applicable_to` each: keeps the rule's item (read in every validation) small. */
export const MAX_RULES_BYTES = 16 * 1024;

const text = (max: number) => z.string().check(z.maxLength(max));
const storableNumber = z.number().check(z.refine(isStorableNumber, STORABLE_NUMBER_MESSAGE));

const itemTarget = z.strictObject({
  id: z.optional(text(100)),
  source_id: z.optional(z.nullable(text(100))),
  object: z.optional(z.enum(['product', 'sku', 'products_collection'])),
  product_id: z.optional(text(100)),
  product_source_id: z.optional(z.nullable(text(100))),
  effect: z.optional(text(50)),
});

const conditionValue = z.union([text(1000), storableNumber, z.boolean(), z.null(), itemTarget]);

/** Operator → values, e.g. `{ "$more_than": [1000] }`. */
const conditions = z
  .record(z.string().check(z.regex(/^\$[a-z_]{1,40}$/, 'must be an operator such as $is or $more_than')), z.array(conditionValue).check(z.maxLength(100)))
  .check(z.refine((c) => Object.keys(c).length <= 10, 'must have at most 10 operators'));

const errorMessage = z.strictObject({ message: z.optional(text(1000)) });
const logic = z.optional(text(MAX_LOGIC_LENGTH));
const conditionNumber = z.string().check(z.regex(/^[1-9]\d{0,2}$/, 'must be a condition number (1, 2, …) or logic'));

/** A sub-condition (under `order.items.*`): no deeper sub-rules than an empty object. */
const subCondition = z.strictObject({
  name: text(100),
  property: z.optional(z.nullable(text(300))),
  conditions: z.optional(conditions),
  rules: z.optional(z.strictObject({ logic })),
  error: z.optional(errorMessage),
});
const subRules = z
  .catchall(z.strictObject({ logic }), subCondition)
  .check(z.refine((r) => Object.keys(r).length <= MAX_CONDITIONS_PER_SET + 1, `must have at most ${MAX_CONDITIONS_PER_SET} conditions`));

const condition = z.strictObject({
  name: text(100),
  property: z.optional(z.nullable(text(300))),
  conditions: z.optional(conditions),
  rules: z.optional(subRules),
  error: z.optional(errorMessage),
});

/** `rules`: numbered conditions and `logic`. */
export const rulesSchema = z.catchall(z.strictObject({ logic }), condition).check(
  z.refine((r) => Object.keys(r).length <= MAX_CONDITIONS_PER_SET + 1, `must have at most ${MAX_CONDITIONS_PER_SET} conditions`),
  z.refine((r) => Object.keys(r).every((k) => k === 'logic' || conditionNumber.safeParse(k).success), 'keys must be condition numbers (1, 2, …) or logic'),
  z.refine((r) => Buffer.byteLength(JSON.stringify(r)) <= MAX_RULES_BYTES, `must not exceed ${MAX_RULES_BYTES} bytes`),
);

const limit = z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000_000)));
const applicableToEntry = z.strictObject({
  object: z.enum(['product', 'sku', 'products_collection']),
  id: text(100).check(z.minLength(1)),
  source_id: z.optional(z.nullable(text(100))),
  product_id: z.optional(text(100)),
  product_source_id: z.optional(z.nullable(text(100))),
  effect: z.optional(z.enum(['APPLY_TO_EVERY', 'APPLY_TO_CHEAPEST', 'APPLY_FROM_CHEAPEST', 'APPLY_TO_MOST_EXPENSIVE', 'APPLY_FROM_MOST_EXPENSIVE'])),
  quantity_limit: limit,
  aggregated_quantity_limit: limit,
  amount_limit: limit,
  aggregated_amount_limit: limit,
});

/** `applicable_to`: the products, SKUs and product collections a discount covers or skips. */
export const applicableToSchema = z.strictObject({
  included: z.optional(z.array(applicableToEntry).check(z.maxLength(50))),
  excluded: z.optional(z.array(applicableToEntry).check(z.maxLength(50))),
  included_all: z.optional(z.boolean()),
});

/** `bundle_rules`: no bundles here; null or an empty object (the reference's "delete the configuration") is accepted. */
const noBundleRules = z.nullable(z.strictObject({}, { error: 'bundle rules are not supported by this service' }));

const ruleFields = {
  rules: z.optional(rulesSchema),
  bundle_rules: z.optional(noBundleRules),
  error: z.optional(z.nullable(errorMessage)),
  applicable_to: z.optional(applicableToSchema),
  type: z.optional(z.enum(VALIDATION_RULE_TYPES)),
  context_type: z.optional(z.string().check(z.regex(/^[a-z_]+(\.[a-z_]+)*$/, 'must be a context type such as global'), z.maxLength(200))),
};

/** POST /v1/validation-rules. */
export const createValidationRuleBody = z.strictObject({ name: text(200).check(z.minLength(1)), ...ruleFields });
export type CreateValidationRuleBody = z.output<typeof createValidationRuleBody>;

/** PUT /v1/validation-rules/{validationRuleId}: the fields sent replace the stored ones (`rules` as a whole). */
export const updateValidationRuleBody = z.strictObject({ name: z.optional(text(200).check(z.minLength(1))), ...ruleFields });
export type UpdateValidationRuleBody = z.output<typeof updateValidationRuleBody>;

const ruleId = z.string().check(z.minLength(1), z.maxLength(100));

/** `{validationRuleId}`. */
export const validationRuleParams = z.strictObject({ validationRuleId: ruleId });
/** `{validationRuleId}/assignments/{assignmentId}`. */
export const validationRuleAssignmentParams = z.strictObject({ validationRuleId: ruleId, assignmentId: z.string().check(z.minLength(1), z.maxLength(100)) });

/** The orders GET /v1/validation-rules serves (an index orders rules by creation only). */
export const VALIDATION_RULE_LIST_ORDERS = ['created_at', '-created_at'] as const;

/** GET /v1/validation-rules. */
export const listValidationRulesQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 99), 1),
  order: z._default(z.enum(VALIDATION_RULE_LIST_ORDERS), '-created_at'),
  start_date: z.optional(dateTime),
  end_date: z.optional(dateTime),
});
export type ListValidationRulesQuery = z.output<typeof listValidationRulesQuery>;

/** GET /v1/validation-rules/{validationRuleId}/assignments. */
export const listRuleAssignmentsQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 99), 1),
  order: z._default(z.enum(['created_at', '-created_at']), '-created_at'),
});
export type ListRuleAssignmentsQuery = z.output<typeof listRuleAssignmentsQuery>;

/** GET /v1/validation-rules-assignments: one rule's, one object's, both, or the project's. */
export const listAssignmentsQuery = z.strictObject({
  related_object_id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  rule: z.optional(ruleId),
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 99), 1),
  order: z._default(z.enum(['created_at', '-created_at']), '-created_at'),
});
export type ListAssignmentsQuery = z.output<typeof listAssignmentsQuery>;

/** POST /v1/validation-rules/{validationRuleId}/assignments: `force` is accepted (nothing here needs forcing). */
export const createAssignmentQuery = z.strictObject({ force: z.optional(queryBoolean) });

/** POST /v1/validation-rules/{validationRuleId}/assignments. */
export const createAssignmentBody = z.strictObject({
  related_object_type: z._default(z.enum(ASSIGNABLE_OBJECT_TYPES), 'voucher'),
  related_object_id: z.string().check(z.minLength(1), z.maxLength(100)),
});
export type CreateAssignmentBody = z.output<typeof createAssignmentBody>;
