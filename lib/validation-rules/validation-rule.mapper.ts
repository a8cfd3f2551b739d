import type { z } from '../zod.js';
import type {
  ValidationRuleAssignmentListReply,
  ValidationRuleAssignmentReply,
  validationRuleListReplySchema,
  validationRuleReplySchema,
} from './validation-rule.reply.js';
import type { ApplicableTo, ApplicableToEntry, RuleCondition, RuleSet, StoredValidationRule, ValidationRuleAssignment } from './validation-rule.js';

type RuleReply = z.input<typeof validationRuleReplySchema>;
type WireSet = { logic?: string } & Record<string, unknown>;

/** A rule set in wire form: `logic` (when there are conditions) and the numbered conditions. */
function rulesReply(set: RuleSet, sub: boolean): WireSet {
  const out: WireSet = {};
  for (const [n, c] of Object.entries(set.conditions)) out[n] = conditionReply(c, sub);
  if (set.logic) out.logic = set.logic;
  return out;
}

function conditionReply(c: RuleCondition, sub: boolean): Record<string, unknown> {
  return {
    name: c.name,
    property: c.property,
    conditions: c.conditions,
    rules: sub ? {} : rulesReply(c.rules, true),
    ...(c.error ? { error: { message: c.error.message } } : {}),
  };
}

const entryReply = (e: ApplicableToEntry): ApplicableToEntry => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as ApplicableToEntry;

const applicableToReply = (a: ApplicableTo) => ({ excluded: a.excluded.map(entryReply), included: a.included.map(entryReply), included_all: a.includedAll });

/** The validation rule object of the reference. */
export function toValidationRuleReply(r: StoredValidationRule): RuleReply {
  return {
    id: r.id,
    name: r.name,
    rules: rulesReply(r.rules, false) as RuleReply['rules'],
    bundle_rules: {},
    ...(r.error ? { error: { message: r.error.message } } : {}),
    applicable_to: applicableToReply(r.applicableTo),
    created_at: r.createdAt,
    ...(r.updatedAt ? { updated_at: r.updatedAt } : {}),
    type: r.type,
    context_type: r.contextType,
    assignments_count: r.assignmentsCount,
    object: 'validation_rules',
  };
}

/** One page of rules and the number of the project's rules. */
export function toValidationRuleListReply(rules: StoredValidationRule[], total: number): z.input<typeof validationRuleListReplySchema> {
  return { object: 'list', data_ref: 'data', data: rules.map(toValidationRuleReply), total };
}

export const toAssignmentReply = (a: ValidationRuleAssignment): ValidationRuleAssignmentReply => ({
  id: a.id,
  rule_id: a.ruleId,
  related_object_id: a.relatedObjectId,
  related_object_type: a.relatedObjectType,
  created_at: a.createdAt,
  object: 'validation_rules_assignment',
});

/** A page of assignments; also the `validation_rules_assignments` of campaign and voucher replies. */
export const toAssignmentListReply = (assignments: readonly ValidationRuleAssignment[], total = assignments.length): ValidationRuleAssignmentListReply => ({
  object: 'list',
  data_ref: 'data',
  data: assignments.map(toAssignmentReply),
  total,
});

/** A campaign or voucher reply with its real `validation_rules_assignments` (oldest first). */
export function withAssignments<T extends object>(
  reply: T,
  assignments: readonly ValidationRuleAssignment[],
): T & { validation_rules_assignments: ValidationRuleAssignmentListReply } {
  return { ...reply, validation_rules_assignments: toAssignmentListReply(assignments) };
}
