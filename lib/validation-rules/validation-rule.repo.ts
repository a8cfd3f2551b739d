import {
  campaign as campaignEntity,
  objectAssignments,
  promotionTierRef,
  rewardAssignment,
  validationRule,
  validationRuleAssignment,
  validationRuleCounter,
  voucherId,
} from '../db/entities.js';
import type { ItemKey } from '../db/entity.js';
import { queryPage } from '../db/query-page.js';
import { mustExist, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import {
  type AssignableObjectType,
  MAX_ASSIGNMENTS_PER_OBJECT,
  MAX_ASSIGNMENTS_PER_RULE,
  MAX_VALIDATION_RULES_PER_PROJECT,
  type ObjectAssignments,
  type StoredValidationRule,
  type ValidationRule,
  type ValidationRuleAssignment,
} from './validation-rule.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;
type TableDeps = Pick<Runtime, 'tableName'>;

/** The rule's item (consistent read); null if none. */
export function getRule(deps: Deps, projectId: string, ruleId: string): Promise<StoredValidationRule | null> {
  return validationRule.get(deps, validationRule.key(projectId, ruleId));
}

/** The rules of `ids` that exist (≤ 100, consistent), in no particular order. */
export function getRules(deps: Deps, projectId: string, ids: readonly string[]): Promise<StoredValidationRule[]> {
  return validationRule.getMany(
    deps,
    [...new Set(ids)].map((id) => validationRule.key(projectId, id)),
    `Too many concurrent reads of validation rules of project ${projectId}`,
  );
}

/** The project's counts: rules and assignments (0 before the first). */
export async function getCounts(deps: Deps, projectId: string): Promise<{ rules: number; assignments: number }> {
  const found = await validationRuleCounter.get(deps, validationRuleCounter.key(projectId));
  return { rules: found?.count ?? 0, assignments: found?.assignments ?? 0 };
}

/** Adds to the project's counters; raising `count` holds only below the cap. */
function countItem(deps: TableDeps, projectId: string, field: 'count' | 'assignments', n: number, voucher = false): TransactItem {
  const capped = field === 'count' && n > 0;
  return {
    Update: {
      TableName: deps.tableName,
      Key: validationRuleCounter.key(projectId),
      // Vouchers' assignments are counted apart: a validation reads this item first, and reads a voucher's assignments only when some voucher has any.
      // Added to (by 0 for other objects) with every assignment, so counts that have it are complete.
      // `revision`: every rule or assignment write raises it (validations' copies of the rules are checked against it).
      UpdateExpression: `SET entity = :entity, v = :v ADD #f :n, revision :one${field === 'assignments' ? ', voucherAssignments :vn' : ''}`,
      ...(capped ? { ConditionExpression: 'attribute_not_exists(#f) OR #f < :cap' } : {}),
      ExpressionAttributeNames: { '#f': field },
      ExpressionAttributeValues: {
        ':entity': validationRuleCounter.name,
        ':v': validationRuleCounter.version,
        ':n': n,
        ':one': 1,
        ...(field === 'assignments' ? { ':vn': voucher ? n : 0 } : {}),
        ...(capped ? { ':cap': MAX_VALIDATION_RULES_PER_PROJECT } : {}),
      },
    },
  };
}

/** Raises the project's rules revision (a rule changed: validations' copies of it are stale). */
const revisionBump = (deps: TableDeps, projectId: string): TransactItem => ({
  Update: {
    TableName: deps.tableName,
    Key: validationRuleCounter.key(projectId),
    UpdateExpression: 'SET entity = :entity, v = :v ADD revision :one',
    ExpressionAttributeValues: { ':entity': validationRuleCounter.name, ':v': validationRuleCounter.version, ':one': 1 },
  },
});

/** What a rule write came to: written; the project is full; the rule changed, went or got an assignment (re-read); a lost race. */
export type RuleWriteOutcome = 'ok' | 'full' | 'changed' | 'conflict';

/** Writes a new rule and counts it, in one transaction. */
export async function insertRule(deps: Deps, projectId: string, rule: ValidationRule): Promise<RuleWriteOutcome> {
  const stored: StoredValidationRule = { ...rule, revision: 0, assignmentsCount: 0 };
  const outcome = await transact(deps, [validationRule.putIfAbsent(deps, stored, projectId), countItem(deps, projectId, 'count', 1)]);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (outcome.failed.includes(1)) return 'full';
  throw new Error(`Validation rule ${rule.id} could not be written: its id is taken`);
}

/**
 * Replaces the rule `read` with `next`, if it is still as read. Only the rule's own fields are
 * written: `assignmentsCount` is changed by the assignment transactions alone, so the update
 * leaves it as it is (an assignment made meanwhile is not undone).
 */
export async function replaceRule(deps: Deps, projectId: string, read: StoredValidationRule, next: ValidationRule): Promise<RuleWriteOutcome> {
  const outcome = await transact(deps, [
    {
      Update: {
        TableName: deps.tableName,
        Key: validationRule.key(projectId, read.id),
        UpdateExpression:
          'SET #name = :name, #rules = :rules, #error = :error, applicableTo = :at, #type = :type, contextType = :ct, updatedAt = :u, revision = :next',
        ConditionExpression: 'revision = :r',
        ExpressionAttributeNames: { '#name': 'name', '#rules': 'rules', '#error': 'error', '#type': 'type' },
        ExpressionAttributeValues: {
          ':name': next.name,
          ':rules': next.rules,
          ':error': next.error,
          ':at': next.applicableTo,
          ':type': next.type,
          ':ct': next.contextType,
          ':u': next.updatedAt,
          ':next': read.revision + 1,
          ':r': read.revision,
        },
      },
    },
    revisionBump(deps, projectId),
  ]);
  if (outcome.ok) return 'ok';
  return 'failed' in outcome ? 'changed' : 'conflict';
}

/** Deletes the rule `read` and uncounts it, if it is still as read and has no assignment. */
export async function removeRule(deps: Deps, projectId: string, read: StoredValidationRule): Promise<RuleWriteOutcome> {
  const outcome = await transact(deps, [
    {
      Delete: {
        TableName: deps.tableName,
        Key: validationRule.key(projectId, read.id),
        ConditionExpression: 'revision = :r AND assignmentsCount = :zero',
        ExpressionAttributeValues: { ':r': read.revision, ':zero': 0 },
      },
    },
    countItem(deps, projectId, 'count', -1),
  ]);
  if (outcome.ok) return 'ok';
  return 'failed' in outcome ? 'changed' : 'conflict';
}

/**
 * One page of the project's rules by creation (GSI1, eventually consistent), created within
 * [from, to] where given: skips `skip`, takes `take`, reads no more than that.
 */
export async function listRulePage(
  deps: Deps,
  projectId: string,
  read: { ascending: boolean; from?: string | undefined; to?: string | undefined },
  skip: number,
  take: number,
): Promise<StoredValidationRule[]> {
  // A bound is a creation time; the sort key is `createdAt#id`, so the upper bound takes every id of that instant.
  const sortRange = read.from !== undefined || read.to !== undefined ? { from: read.from, to: read.to !== undefined ? `${read.to}#~` : undefined } : undefined;
  const page = await queryPage(
    (pageSize) => validationRule.queryPages(deps, { index: [projectId] }, { ascending: read.ascending, pageSize, ...(sortRange ? { sortRange } : {}) }),
    skip,
    take,
  );
  return page.items;
}

/** The key of the item that proves an object of `type` exists, or null for the types this service keeps no lookup of (see docs/decisions.md). */
export function objectKey(projectId: string, type: AssignableObjectType, id: string): ItemKey | null {
  switch (type) {
    case 'campaign':
      return campaignEntity.key(projectId, id);
    case 'voucher':
      return voucherId.key(projectId, id);
    case 'promotion_tier':
      return promotionTierRef.key(projectId, id);
    case 'reward_assignment':
      return rewardAssignment.key(projectId, id);
    default:
      return null;
  }
}

/** The assignments of one object (consistent); empty when it has none. */
export async function getObjectAssignments(deps: Deps, projectId: string, objectId: string): Promise<ObjectAssignments> {
  return (await objectAssignments.get(deps, objectAssignments.key(projectId, objectId))) ?? { assignments: [], ruleIds: [] };
}

/**
 * The assignments of `objectIds` (≤ 100) by object id, in one consistent BatchGetItem; objects
 * with none are absent. (A validation can put the same keys, `objectAssignments.key(projectId, id)`,
 * into the BatchGet that reads its redeemables, and read them with `objectAssignments.fromItem`.)
 */
export async function getObjectAssignmentsMany(deps: Deps, projectId: string, objectIds: readonly string[]): Promise<Map<string, ValidationRuleAssignment[]>> {
  const items = await objectAssignments.getMany(
    deps,
    [...new Set(objectIds)].map((id) => objectAssignments.key(projectId, id)),
    `Too many concurrent reads of validation rule assignments of project ${projectId}`,
  );
  const out = new Map<string, ValidationRuleAssignment[]>();
  for (const item of items) {
    const first = item.assignments[0];
    if (first) out.set(first.relatedObjectId, item.assignments);
  }
  return out;
}

/** One assignment of a rule (consistent); null if none. */
export function getAssignment(deps: Deps, projectId: string, ruleId: string, assignmentId: string): Promise<ValidationRuleAssignment | null> {
  return validationRuleAssignment.get(deps, validationRuleAssignment.key(projectId, ruleId, assignmentId));
}

/** What an assignment write came to. */
export type AssignOutcome = 'ok' | 'rule_gone' | 'rule_full' | 'object_taken' | 'object_gone' | 'conflict';

/**
 * Writes an assignment in one transaction: its item (in the rule's partition), +1 on the rule's
 * `assignmentsCount` (the rule must exist and have fewer than MAX_ASSIGNMENTS_PER_RULE), the
 * object's assignments item (the rule must not be on it yet, and it must have fewer than
 * MAX_ASSIGNMENTS_PER_OBJECT), +1 on the project's assignment count, and, where this service
 * keeps one, a check that the object exists.
 */
export async function insertAssignment(deps: Deps, projectId: string, a: ValidationRuleAssignment): Promise<AssignOutcome> {
  const existence = objectKey(projectId, a.relatedObjectType, a.relatedObjectId);
  const items: TransactItem[] = [
    validationRuleAssignment.putIfAbsent(deps, a, projectId),
    {
      Update: {
        TableName: deps.tableName,
        Key: validationRule.key(projectId, a.ruleId),
        UpdateExpression: 'ADD assignmentsCount :one',
        ConditionExpression: 'attribute_exists(PK) AND assignmentsCount < :cap',
        ExpressionAttributeValues: { ':one': 1, ':cap': MAX_ASSIGNMENTS_PER_RULE },
      },
    },
    {
      Update: {
        TableName: deps.tableName,
        Key: objectAssignments.key(projectId, a.relatedObjectId),
        UpdateExpression:
          'SET entity = :entity, v = :v, assignments = list_append(if_not_exists(assignments, :empty), :a), ruleIds = list_append(if_not_exists(ruleIds, :empty), :r)',
        ConditionExpression: 'attribute_not_exists(ruleIds) OR (NOT contains(ruleIds, :rule) AND size(ruleIds) < :cap)',
        ExpressionAttributeValues: {
          ':entity': objectAssignments.name,
          ':v': objectAssignments.version,
          ':empty': [],
          ':a': [a],
          ':r': [a.ruleId],
          ':rule': a.ruleId,
          ':cap': MAX_ASSIGNMENTS_PER_OBJECT,
        },
      },
    },
    countItem(deps, projectId, 'assignments', 1, a.relatedObjectType === 'voucher'),
    ...(existence ? [mustExist(deps, existence)] : []),
  ];
  const outcome = await transact(deps, items);
  if (outcome.ok) return 'ok';
  if (!('failed' in outcome)) return 'conflict';
  if (outcome.failed.includes(1)) return (await getRule(deps, projectId, a.ruleId)) ? 'rule_full' : 'rule_gone';
  if (outcome.failed.includes(2)) return 'object_taken';
  if (outcome.failed.includes(4)) return 'object_gone';
  throw new Error(`Validation rule assignment ${a.id} could not be written: its id is taken`);
}

/**
 * Deletes an assignment: its item, −1 on its rule's count and the project's, and its entry of the
 * object's item (at `index`, which must still hold it), in one transaction.
 * @returns 'changed' when the object's item moved (re-read it and retry).
 */
export async function removeAssignment(deps: Deps, projectId: string, a: ValidationRuleAssignment, index: number): Promise<'ok' | 'changed' | 'conflict'> {
  const outcome = await transact(deps, [
    { Delete: { TableName: deps.tableName, Key: validationRuleAssignment.key(projectId, a.ruleId, a.id), ConditionExpression: 'attribute_exists(PK)' } },
    {
      Update: {
        TableName: deps.tableName,
        Key: validationRule.key(projectId, a.ruleId),
        UpdateExpression: 'ADD assignmentsCount :minus',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
    {
      Update: {
        TableName: deps.tableName,
        Key: objectAssignments.key(projectId, a.relatedObjectId),
        UpdateExpression: `REMOVE assignments[${index}], ruleIds[${index}]`,
        ConditionExpression: `assignments[${index}].id = :id`,
        ExpressionAttributeValues: { ':id': a.id },
      },
    },
    countItem(deps, projectId, 'assignments', -1, a.relatedObjectType === 'voucher'),
  ]);
  if (outcome.ok) return 'ok';
  return 'failed' in outcome ? 'changed' : 'conflict';
}

/** Every assignment of a rule (at most MAX_ASSIGNMENTS_PER_RULE small items; consistent). */
export function listRuleAssignments(deps: Deps, projectId: string, ruleId: string): Promise<ValidationRuleAssignment[]> {
  return validationRuleAssignment.query(deps, { key: [projectId, ruleId] }, { consistent: true, sortBeginsWith: 'ASGM#' });
}

/** One page of the project's assignments by creation (GSI1, eventually consistent). */
export async function listAssignmentPage(deps: Deps, projectId: string, ascending: boolean, skip: number, take: number): Promise<ValidationRuleAssignment[]> {
  const page = await queryPage((pageSize) => validationRuleAssignment.queryPages(deps, { index: [projectId] }, { ascending, pageSize }), skip, take);
  return page.items;
}
