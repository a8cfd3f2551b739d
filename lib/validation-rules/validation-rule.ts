/** A value a condition compares with: a scalar, or an order-item target (`{ id, object }`) of the `order.items.*` conditions. */
export type ConditionValue = string | number | boolean | null | ItemTarget;

/** A product or SKU a condition of `order.items.any|every|none` names, by Voucherify id and/or source id. */
export interface ItemTarget {
  id?: string | undefined;
  source_id?: string | null | undefined;
  object?: 'product' | 'sku' | 'products_collection' | undefined;
  product_id?: string | undefined;
  product_source_id?: string | null | undefined;
  effect?: string | undefined;
}

/** One numbered condition of a rule set (the reference's `rules["1"]`). */
export interface RuleCondition {
  name: string;
  property: string | null;
  /** Operator (`$is`, `$more_than`, …) → its values, as sent. */
  conditions: Record<string, ConditionValue[]>;
  /** Sub-conditions (of `order.items.*`); empty when none. */
  rules: RuleSet;
  error: { message: string } | null;
}

/** A rule set: numbered conditions and the logic between them. `logic` is always stored (defaulted when none was sent). */
export interface RuleSet {
  logic: string;
  conditions: Record<string, RuleCondition>;
}

/** One product, SKU or product collection of `applicable_to.included` / `excluded`, stored as sent. */
export interface ApplicableToEntry {
  object: 'product' | 'sku' | 'products_collection';
  id: string;
  source_id?: string | null | undefined;
  product_id?: string | undefined;
  product_source_id?: string | null | undefined;
  effect?: 'APPLY_TO_EVERY' | 'APPLY_TO_CHEAPEST' | 'APPLY_FROM_CHEAPEST' | 'APPLY_TO_MOST_EXPENSIVE' | 'APPLY_FROM_MOST_EXPENSIVE' | undefined;
  quantity_limit?: number | undefined;
  aggregated_quantity_limit?: number | undefined;
  amount_limit?: number | undefined;
  aggregated_amount_limit?: number | undefined;
}

export interface ApplicableTo {
  included: ApplicableToEntry[];
  excluded: ApplicableToEntry[];
  includedAll: boolean;
}

export const VALIDATION_RULE_TYPES = ['expression', 'basic', 'advanced', 'complex'] as const;
export type ValidationRuleType = (typeof VALIDATION_RULE_TYPES)[number];

/** A validation rule (`val_…`). */
export interface ValidationRule {
  id: string;
  name: string;
  rules: RuleSet;
  error: { message: string } | null;
  applicableTo: ApplicableTo;
  type: ValidationRuleType;
  contextType: string;
  createdAt: string;
  updatedAt: string | null;
}

/** A rule as its item holds it: with its optimistic lock and the number of its assignments. */
export interface StoredValidationRule extends ValidationRule {
  revision: number;
  assignmentsCount: number;
}

/** What a rule can be assigned to (the reference's enum). */
export const ASSIGNABLE_OBJECT_TYPES = ['voucher', 'campaign', 'promotion_tier', 'earning_rule', 'distribution', 'reward_assignment'] as const;
export type AssignableObjectType = (typeof ASSIGNABLE_OBJECT_TYPES)[number];

/** A validation rule assignment (`asgm_…`): one rule on one object. */
export interface ValidationRuleAssignment {
  id: string;
  ruleId: string;
  relatedObjectType: AssignableObjectType;
  relatedObjectId: string;
  createdAt: string;
}

/** The assignments of one object, in one small item (read by key with the object, e.g. in a validation's BatchGet). */
export interface ObjectAssignments {
  assignments: ValidationRuleAssignment[];
  /** The rule of each assignment, same order: the condition of a new assignment checks it (no rule twice on one object). */
  ruleIds: string[];
}

/** Rules a project may have (the list reads them with one Query). */
export const MAX_VALIDATION_RULES_PER_PROJECT = 1000;
/** Assignments one rule may have (its assignments are listed with one Query of its partition). */
export const MAX_ASSIGNMENTS_PER_RULE = 1000;
/** Rules one object may carry (its assignments item stays small, and a validation evaluates them all). */
export const MAX_ASSIGNMENTS_PER_OBJECT = 20;
