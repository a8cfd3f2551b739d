import { RETRY, retryOnConflict } from '../db/transact.js';
import { DuplicateError, InvalidQueryParamsError, NotFoundError, ResourceInUseError, TooManyValidationRulesError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { compileRuleSet, type WireRules } from './rule-evaluation.js';
import * as repo from './validation-rule.repo.js';
import type {
  CreateAssignmentBody,
  CreateValidationRuleBody,
  ListAssignmentsQuery,
  ListRuleAssignmentsQuery,
  ListValidationRulesQuery,
  UpdateValidationRuleBody,
} from './validation-rule.schema.js';
import {
  type ApplicableTo,
  MAX_ASSIGNMENTS_PER_OBJECT,
  MAX_ASSIGNMENTS_PER_RULE,
  MAX_VALIDATION_RULES_PER_PROJECT,
  type StoredValidationRule,
  type ValidationRule,
  type ValidationRuleAssignment,
} from './validation-rule.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;
type ReadDeps = Pick<Runtime, 'ddb' | 'tableName'>;

const notFound = (ruleId: string) => new NotFoundError('validation_rules', ruleId);

type ApplicableToBody = NonNullable<CreateValidationRuleBody['applicable_to']>;
const applicableToOf = (a: ApplicableToBody | undefined): ApplicableTo => ({
  included: a?.included ?? [],
  excluded: a?.excluded ?? [],
  includedAll: a?.included_all ?? false,
});
const errorOf = (e: { message?: string | undefined } | null | undefined) => (e?.message !== undefined ? { message: e.message } : null);
// The schema's catchall output is the wire form compileRuleSet reads.
const wire = (rules: NonNullable<CreateValidationRuleBody['rules']>): WireRules => rules as WireRules;

/**
 * POST /v1/validation-rules: a rule whose conditions this service can all evaluate.
 * @throws InvalidValidationRulesError naming the condition that cannot be evaluated (or the malformed logic);
 *   TooManyValidationRulesError at MAX_VALIDATION_RULES_PER_PROJECT; ConflictRetryError.
 */
export async function createValidationRules(deps: Deps, projectId: string, body: CreateValidationRuleBody): Promise<StoredValidationRule> {
  const rule: ValidationRule = {
    id: deps.ids.id('val'),
    name: body.name,
    rules: compileRuleSet(body.rules ? wire(body.rules) : {}),
    error: errorOf(body.error),
    applicableTo: applicableToOf(body.applicable_to),
    type: body.type ?? 'expression',
    contextType: body.context_type ?? 'global',
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
  };
  return retryOnConflict(`Too many concurrent writes of validation rules of project ${projectId}`, async () => {
    const outcome = await repo.insertRule(deps, projectId, rule);
    if (outcome === 'full')
      throw new TooManyValidationRulesError(`A project has at most ${MAX_VALIDATION_RULES_PER_PROJECT} validation rules; delete one first`);
    return outcome === 'ok' ? { ...rule, revision: 0, assignmentsCount: 0 } : RETRY;
  });
}

/**
 * GET /v1/validation-rules/{validationRuleId}.
 * @throws NotFoundError.
 */
export async function getValidationRule(deps: ReadDeps, projectId: string, ruleId: string): Promise<StoredValidationRule> {
  const found = await repo.getRule(deps, projectId, ruleId);
  if (!found) throw notFound(ruleId);
  return found;
}

/**
 * PUT /v1/validation-rules/{validationRuleId}: the fields sent replace the stored ones (`rules`
 * and `applicable_to` as a whole), checked as at creation; `updated_at` is refreshed. The rule's
 * assignments keep it, so its new conditions apply to them from the next validation.
 * @throws NotFoundError, InvalidValidationRulesError, ConflictRetryError.
 */
export async function updateValidationRule(deps: Deps, projectId: string, ruleId: string, body: UpdateValidationRuleBody): Promise<StoredValidationRule> {
  const rules = body.rules ? compileRuleSet(wire(body.rules)) : undefined;
  return retryOnConflict(`Too many concurrent writes of validation rule ${ruleId}`, async () => {
    const read = await repo.getRule(deps, projectId, ruleId);
    if (!read) throw notFound(ruleId);
    const next: StoredValidationRule = {
      ...read,
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(rules ? { rules } : {}),
      ...(body.error !== undefined ? { error: errorOf(body.error) } : {}),
      ...(body.applicable_to !== undefined ? { applicableTo: applicableToOf(body.applicable_to) } : {}),
      ...(body.type !== undefined ? { type: body.type } : {}),
      ...(body.context_type !== undefined ? { contextType: body.context_type } : {}),
      updatedAt: deps.clock.now().toISOString(),
      revision: read.revision + 1,
    };
    const outcome = await repo.replaceRule(deps, projectId, read, next);
    // assignmentsCount may have moved meanwhile: the reply reads it back.
    return outcome === 'ok' ? ((await repo.getRule(deps, projectId, ruleId)) ?? next) : RETRY;
  });
}

/**
 * DELETE /v1/validation-rules/{validationRuleId}. A rule that is still assigned is not deleted:
 * its objects would silently lose a restriction.
 * @throws NotFoundError; ResourceInUseError (400 `resource_in_use`) while it has assignments; ConflictRetryError.
 */
export function deleteValidationRules(deps: ReadDeps, projectId: string, ruleId: string): Promise<void> {
  return retryOnConflict(`Too many concurrent writes of validation rule ${ruleId}`, async () => {
    const read = await repo.getRule(deps, projectId, ruleId);
    if (!read) throw notFound(ruleId);
    if (read.assignmentsCount > 0) {
      throw new ResourceInUseError(
        'validation_rules',
        ruleId,
        `Resource validation_rules with id ${ruleId} is in use by ${read.assignmentsCount} validation_rules_assignments; delete them first`,
      );
    }
    const outcome = await repo.removeRule(deps, projectId, read);
    return outcome === 'ok' ? undefined : RETRY;
  });
}

/**
 * GET /v1/validation-rules: a page of the project's rules by creation (`start_date` / `end_date`
 * bound the creation time, both included); `total` counts every rule of the project.
 */
export async function listValidationRules(
  deps: ReadDeps,
  projectId: string,
  q: ListValidationRulesQuery,
): Promise<{ rules: StoredValidationRule[]; total: number }> {
  // DynamoDB refuses a BETWEEN whose bounds are out of order (a 500, found by the hostile suite): say so instead.
  if (q.start_date !== undefined && q.end_date !== undefined && q.start_date > q.end_date) {
    throw new InvalidQueryParamsError('Property .end_date must not be before start_date');
  }
  const skip = (q.page - 1) * q.limit;
  const [rules, counts] = await Promise.all([
    repo.listRulePage(deps, projectId, { ascending: q.order === 'created_at', from: q.start_date, to: q.end_date }, skip, q.limit),
    repo.getCounts(deps, projectId),
  ]);
  return { rules, total: counts.rules };
}

/**
 * POST /v1/validation-rules/{validationRuleId}/assignments: the rule on one object. A campaign,
 * voucher (by id), promotion tier or reward assignment must exist; earning rules and
 * distributions are taken as named (docs/decisions.md). One rule once per object.
 * @throws NotFoundError (the rule, or the object); DuplicateError (409, naming the existing
 *   assignment); TooManyValidationRulesError (the object or the rule is full); ConflictRetryError.
 */
export async function createValidationRuleAssignment(
  deps: Deps,
  projectId: string,
  ruleId: string,
  body: CreateAssignmentBody,
): Promise<ValidationRuleAssignment> {
  const assignment: ValidationRuleAssignment = {
    id: deps.ids.id('asgm'),
    ruleId,
    relatedObjectType: body.related_object_type,
    relatedObjectId: body.related_object_id,
    createdAt: deps.clock.now().toISOString(),
  };
  return retryOnConflict(`Too many concurrent assignments of validation rule ${ruleId}`, async () => {
    const outcome = await repo.insertAssignment(deps, projectId, assignment);
    switch (outcome) {
      case 'ok':
        return assignment;
      case 'rule_gone':
        throw notFound(ruleId);
      case 'rule_full':
        throw new TooManyValidationRulesError(`A validation rule has at most ${MAX_ASSIGNMENTS_PER_RULE} assignments`);
      case 'object_gone':
        throw new NotFoundError(body.related_object_type, body.related_object_id);
      case 'object_taken': {
        const held = await repo.getObjectAssignments(deps, projectId, body.related_object_id);
        const existing = held.assignments.find((a) => a.ruleId === ruleId);
        if (existing) {
          throw new DuplicateError('validation_rules_assignment', `Duplicated validation_rules_assignment exists with id ${existing.id}`, existing.id);
        }
        if (held.ruleIds.length >= MAX_ASSIGNMENTS_PER_OBJECT) {
          throw new TooManyValidationRulesError(`An object has at most ${MAX_ASSIGNMENTS_PER_OBJECT} validation rules assigned`);
        }
        return RETRY;
      }
      default:
        return RETRY;
    }
  });
}

/**
 * DELETE /v1/validation-rules/{validationRuleId}/assignments/{assignmentId}.
 * @throws NotFoundError (the rule, or its assignment), ConflictRetryError.
 */
export function deleteValidationRuleAssignment(deps: ReadDeps, projectId: string, ruleId: string, assignmentId: string): Promise<void> {
  return retryOnConflict(`Too many concurrent changes of validation rule assignment ${assignmentId}`, async () => {
    const found = await repo.getAssignment(deps, projectId, ruleId, assignmentId);
    if (!found) {
      if (!(await repo.getRule(deps, projectId, ruleId))) throw notFound(ruleId);
      throw new NotFoundError('validation_rules_assignment', assignmentId);
    }
    const held = await repo.getObjectAssignments(deps, projectId, found.relatedObjectId);
    const index = held.assignments.findIndex((a) => a.id === assignmentId);
    if (index < 0) return RETRY;
    const outcome = await repo.removeAssignment(deps, projectId, found, index);
    return outcome === 'ok' ? undefined : RETRY;
  });
}

const byCreation = (ascending: boolean) => (a: ValidationRuleAssignment, b: ValidationRuleAssignment) => {
  const c = a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt.localeCompare(b.createdAt);
  return ascending ? c : -c;
};
const pageOf = <T>(all: T[], page: number, limit: number): T[] => all.slice((page - 1) * limit, page * limit);

/**
 * GET /v1/validation-rules/{validationRuleId}/assignments: a page of the rule's assignments.
 * @throws NotFoundError for an unknown rule (the reference answers an empty list; a 404 tells a
 *   mistyped id, or another project's, from a rule with no assignments: docs/decisions.md).
 */
export async function listValidationRuleAssignments(
  deps: ReadDeps,
  projectId: string,
  ruleId: string,
  q: ListRuleAssignmentsQuery,
): Promise<{ assignments: ValidationRuleAssignment[]; total: number }> {
  const [rule, found] = await Promise.all([repo.getRule(deps, projectId, ruleId), repo.listRuleAssignments(deps, projectId, ruleId)]);
  if (!rule) throw notFound(ruleId);
  const all = found.sort(byCreation(q.order === 'created_at'));
  return { assignments: pageOf(all, q.page, q.limit), total: all.length };
}

/**
 * GET /v1/validation-rules-assignments: an object's assignments (`related_object_id`), a rule's
 * (`rule`), both, or the project's; `total` counts what the filter names.
 */
export async function listValidationRulesAssignments(
  deps: ReadDeps,
  projectId: string,
  q: ListAssignmentsQuery,
): Promise<{ assignments: ValidationRuleAssignment[]; total: number }> {
  const ascending = q.order === 'created_at';
  if (q.related_object_id !== undefined || q.rule !== undefined) {
    const source =
      q.related_object_id !== undefined
        ? (await repo.getObjectAssignments(deps, projectId, q.related_object_id)).assignments
        : await repo.listRuleAssignments(deps, projectId, q.rule ?? '');
    const all = source.filter((a) => q.rule === undefined || a.ruleId === q.rule).sort(byCreation(ascending));
    return { assignments: pageOf(all, q.page, q.limit), total: all.length };
  }
  const skip = (q.page - 1) * q.limit;
  const [assignments, counts] = await Promise.all([repo.listAssignmentPage(deps, projectId, ascending, skip, q.limit), repo.getCounts(deps, projectId)]);
  return { assignments, total: counts.assignments };
}

/**
 * The assignments of one object (a campaign, a voucher by id), oldest first, for the
 * `validation_rules_assignments` of its reply. One consistent GetItem.
 */
export async function assignmentsOf(deps: ReadDeps, projectId: string, objectId: string): Promise<ValidationRuleAssignment[]> {
  return (await repo.getObjectAssignments(deps, projectId, objectId)).assignments;
}

/**
 * The rules assigned to each of `objectIds` (≤ 100: a redeemable, its campaign, its tier), in
 * assignment order, for evaluateValidationRules (lib/validation-rules/rule-evaluation.ts): one
 * BatchGetItem of the objects' assignments items, then one of the distinct rules (none when no
 * object has a rule). Objects without rules map to [].
 */
export async function rulesOfObjects(deps: ReadDeps, projectId: string, objectIds: readonly string[]): Promise<Map<string, StoredValidationRule[]>> {
  const held = await repo.getObjectAssignmentsMany(deps, projectId, objectIds);
  const ruleIds = [...new Set([...held.values()].flat().map((a) => a.ruleId))];
  const rules = new Map<string, StoredValidationRule>();
  for (let i = 0; i < ruleIds.length; i += 100) {
    for (const r of await repo.getRules(deps, projectId, ruleIds.slice(i, i + 100))) rules.set(r.id, r);
  }
  return new Map(objectIds.map((id) => [id, (held.get(id) ?? []).flatMap((a) => rules.get(a.ruleId) ?? [])]));
}
