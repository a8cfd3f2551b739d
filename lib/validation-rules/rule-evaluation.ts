/*
 * Validation rules as data: the check that refuses, at creation, a rule this service cannot
 * evaluate (compileRuleSet), and the evaluation of a stored rule against an order, a customer and
 * redemption counters (evaluateValidationRule). Pure: no I/O, no clock of its own.
 *
 * Supported condition names (docs/decisions.md "Validation rules: what is evaluated, and how"):
 *   order:      order.amount, order.items.count, order.metadata (property),
 *               order.items.any | order.items.every | order.items.none (products / SKUs / product collections, with the
 *               sub-conditions order.items.quantity, order.items.price, order.items.aggregated_quantity,
 *               order.items.aggregated_amount)
 *   customer:   customer.metadata (property), customer.segment (the ids of the segments the customer is in)
 *   redemption: redemption.count.per_customer, redemption.count.per_campaign, campaign.redemptions.count
 * Dates: `$after` / `$before` (and the ordering operators with an ISO date-time) on metadata values.
 */
import { InvalidValidationRulesError } from '../errors.js';
import { defaultLogic, evaluateLogic, type LogicNode, LogicSyntaxError, logicRefs, parseLogic } from './rule-logic.js';
import type { ConditionValue, ItemTarget, RuleCondition, RuleSet, ValidationRule } from './validation-rule.js';

/** The three reasons a rule makes a redeemable INAPPLICABLE (the reference's failure codes). */
export type RuleViolationKey = 'order_rules_violated' | 'customer_rules_violated' | 'redemption_rules_violated';
type Family = 'order' | 'customer' | 'redemption';
const violationKey: Record<Family, RuleViolationKey> = {
  order: 'order_rules_violated',
  customer: 'customer_rules_violated',
  redemption: 'redemption_rules_violated',
};

/** Numbered conditions per rule set (and per sub-rule set). */
export const MAX_CONDITIONS_PER_SET = 30;

// ---- The wire form (the request's `rules`), as the request schema leaves it ----

/** A numbered condition as sent. */
export interface WireCondition {
  name: string;
  property?: string | null | undefined;
  conditions?: Record<string, ConditionValue[]> | undefined;
  rules?: WireRules | undefined;
  error?: { message?: string | undefined } | undefined;
}
/** A request's `rules`: `logic` and numbered conditions. */
export type WireRules = { logic?: string | undefined } & { [n: string]: WireCondition | string | undefined };

// ---- What each name means ----

type Kind = 'number' | 'metadata' | 'membership';
interface ScalarName {
  family: Family;
  kind: Kind;
  property: boolean;
}
const SCALAR_NAMES: Record<string, ScalarName> = {
  'order.amount': { family: 'order', kind: 'number', property: false },
  'order.items.count': { family: 'order', kind: 'number', property: false },
  'order.metadata': { family: 'order', kind: 'metadata', property: true },
  'customer.metadata': { family: 'customer', kind: 'metadata', property: true },
  'customer.segment': { family: 'customer', kind: 'membership', property: false },
  'redemption.count.per_customer': { family: 'redemption', kind: 'number', property: false },
  'redemption.count.per_campaign': { family: 'redemption', kind: 'number', property: false },
  'campaign.redemptions.count': { family: 'redemption', kind: 'number', property: false },
};
const ITEM_NAMES = new Set(['order.items.any', 'order.items.every', 'order.items.none']);
const ITEM_SUB_NAMES = new Set(['order.items.quantity', 'order.items.price', 'order.items.aggregated_quantity', 'order.items.aggregated_amount']);

const ONE_VALUE = new Set([
  '$less_than',
  '$less_than_or_equal',
  '$more_than',
  '$more_than_or_equal',
  '$after',
  '$before',
  '$starts_with',
  '$ends_with',
  '$contains',
]);
const OPERATORS: Record<Kind, ReadonlySet<string>> = {
  number: new Set(['$is', '$is_not', '$in', '$not_in', '$less_than', '$less_than_or_equal', '$more_than', '$more_than_or_equal']),
  metadata: new Set([
    '$is',
    '$is_not',
    '$in',
    '$not_in',
    '$less_than',
    '$less_than_or_equal',
    '$more_than',
    '$more_than_or_equal',
    '$starts_with',
    '$ends_with',
    '$contains',
    '$after',
    '$before',
  ]),
  membership: new Set(['$is', '$is_not', '$in', '$not_in']),
};
const ITEM_OPERATORS = new Set(['$is', '$in']);

const isDate = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v));
const isScalar = (v: ConditionValue): v is string | number | boolean | null => v === null || typeof v !== 'object';

// ---- Creation: refuse what cannot be evaluated ----

function refuse(where: string, what: string): never {
  throw new InvalidValidationRulesError(`${where}: ${what}`);
}

function checkValues(where: string, kind: Kind, operator: string, values: ConditionValue[]): void {
  if (values.length === 0) refuse(where, `${operator} needs at least one value`);
  if (ONE_VALUE.has(operator) && values.length !== 1) refuse(where, `${operator} takes exactly one value`);
  for (const v of values) if (!isScalar(v)) refuse(where, `${operator} takes numbers, strings or booleans, not objects`);
  if (kind === 'number' && values.some((v) => typeof v !== 'number' || !Number.isFinite(v))) refuse(where, `${operator} takes numbers`);
  if (kind === 'membership' && values.some((v) => typeof v !== 'string')) refuse(where, `${operator} takes segment ids`);
  if (['$starts_with', '$ends_with', '$contains'].includes(operator) && typeof values[0] !== 'string') refuse(where, `${operator} takes a string`);
  if (['$after', '$before'].includes(operator) && !isDate(values[0])) refuse(where, `${operator} takes an ISO 8601 date or date-time`);
  if (kind === 'metadata' && operator.startsWith('$less') && !(typeof values[0] === 'number' || isDate(values[0]))) {
    refuse(where, `${operator} takes a number or an ISO 8601 date-time`);
  }
  if (kind === 'metadata' && operator.startsWith('$more') && !(typeof values[0] === 'number' || isDate(values[0]))) {
    refuse(where, `${operator} takes a number or an ISO 8601 date-time`);
  }
}

function checkTargets(where: string, operator: string, values: ConditionValue[]): void {
  if (!ITEM_OPERATORS.has(operator)) refuse(where, `operator ${operator} is not supported for order items (use $is or $in)`);
  if (values.length === 0) refuse(where, `${operator} needs at least one product or SKU`);
  for (const v of values) {
    if (isScalar(v)) refuse(where, `${operator} takes objects naming a product or SKU ({ "id": …, "object": "product" })`);
    if (v.object === 'products_collection' ? !v.id : !v.id && !v.source_id)
      refuse(where, `each product or SKU needs an id or a source_id, each collection an id`);
  }
}

function compileCondition(path: string, c: WireCondition, sub: boolean): RuleCondition {
  const where = `${path} (${c.name})`;
  const conditions = c.conditions ?? {};
  const operators = Object.keys(conditions);
  const base = { name: c.name, property: c.property ?? null, error: c.error?.message !== undefined ? { message: c.error.message } : null };
  const subRules = c.rules ?? {};
  const hasSubRules = Object.keys(subRules).some((k) => k !== 'logic');
  if (operators.length === 0) refuse(where, `condition ${c.name} has no operator`);
  if (!sub && ITEM_NAMES.has(c.name)) {
    if (c.property) refuse(where, `${c.name} takes no property`);
    for (const op of operators) checkTargets(where, op, conditions[op] ?? []);
    if (c.name === 'order.items.none' && hasSubRules) refuse(where, 'order.items.none takes no sub-conditions');
    const rules = hasSubRules ? compileRuleSet(subRules, `${path}.rules`, true) : { logic: '', conditions: {} };
    return { ...base, conditions, rules };
  }
  if (hasSubRules) refuse(where, `${c.name} takes no sub-conditions`);
  const scalar = sub ? (ITEM_SUB_NAMES.has(c.name) ? { family: 'order' as const, kind: 'number' as const, property: false } : undefined) : SCALAR_NAMES[c.name];
  if (!scalar) {
    refuse(
      where,
      sub
        ? `condition ${c.name} is not supported under order.items (supported: ${[...ITEM_SUB_NAMES].join(', ')})`
        : `condition ${c.name} is not supported by this service (supported: ${[...Object.keys(SCALAR_NAMES), ...ITEM_NAMES].join(', ')})`,
    );
  }
  if (scalar.property && !c.property) refuse(where, `${c.name} needs a property`);
  if (!scalar.property && c.property) refuse(where, `${c.name} takes no property`);
  for (const op of operators) {
    if (!OPERATORS[scalar.kind].has(op)) refuse(where, `operator ${op} is not supported for ${c.name} (supported: ${[...OPERATORS[scalar.kind]].join(', ')})`);
    checkValues(where, scalar.kind, op, conditions[op] ?? []);
  }
  return { ...base, conditions, rules: { logic: '', conditions: {} } };
}

/**
 * The rule set of a request's `rules`, checked: numbered conditions 1…n (no gaps), each of a
 * supported name, operator and values; `logic` parsed and naming every condition and no other
 * (default: all joined by `and`). `where` prefixes the details (`rules`, `rules.2.rules`).
 * @throws InvalidValidationRulesError naming the first condition (or the logic) that is refused.
 */
export function compileRuleSet(wire: WireRules, where = 'rules', sub = false): RuleSet {
  const refs = Object.keys(wire).filter((k) => k !== 'logic' && wire[k] !== undefined);
  if (refs.length > MAX_CONDITIONS_PER_SET) refuse(where, `at most ${MAX_CONDITIONS_PER_SET} conditions`);
  const numbers = refs.map((r) => (/^[1-9]\d*$/.test(r) ? Number(r) : Number.NaN)).sort((a, b) => a - b);
  numbers.forEach((n, i) => {
    if (n !== i + 1) refuse(where, `conditions must be numbered 1 to ${refs.length} (found ${JSON.stringify(refs)})`);
  });
  const ordered = numbers.map(String);
  const conditions: Record<string, RuleCondition> = {};
  for (const ref of ordered) {
    const c = wire[ref];
    if (typeof c !== 'object' || c === null) refuse(`${where}.${ref}`, 'must be a condition object');
    conditions[ref] = compileCondition(`${where}.${ref}`, c, sub);
  }
  const logic = wire.logic === undefined || wire.logic.trim() === '' ? defaultLogic(ordered) : wire.logic;
  if (ordered.length === 0) {
    if (wire.logic !== undefined && wire.logic.trim() !== '') refuse(where, 'logic names conditions but there are none');
    return { logic: '', conditions };
  }
  let tree: LogicNode;
  try {
    tree = parseLogic(logic);
  } catch (error) {
    if (error instanceof LogicSyntaxError) refuse(where, error.message);
    throw error;
  }
  const named = logicRefs(tree);
  const unknown = named.filter((r) => !(r in conditions));
  if (unknown.length > 0) refuse(where, `logic names condition ${unknown.join(', ')}, which is not defined`);
  const unused = ordered.filter((r) => !named.includes(r));
  if (unused.length > 0) refuse(where, `condition ${unused.join(', ')} is not in the logic (it would never be evaluated)`);
  return { logic, conditions };
}

// ---- Evaluation ----

/** One order line as a rule sees it. Amounts in the smallest currency unit. */
export interface RuleOrderItem {
  productId: string | null;
  productSourceId: string | null;
  skuId: string | null;
  skuSourceId: string | null;
  quantity: number | null;
  /** Unit price. */
  price: number | null;
  /** Line amount (price × quantity, or as sent). */
  amount: number | null;
  /** Whether the line is in a product collection, as the request read it (absent: in none). */
  inCollection?: ((collectionId: string) => boolean) | undefined;
}

/** What a rule is evaluated on. Absent order or customer: every condition on it fails (none is skipped). */
export interface RuleContext {
  order: { amount: number | null; items: RuleOrderItem[]; metadata: Record<string, unknown> } | null;
  customer: { id: string; sourceId: string | null; metadata: Record<string, unknown>; segmentIds?: readonly string[] | undefined } | null;
  /**
   * Redemptions before this one; null where not known (no customer): conditions on it fail.
   * The conditions compare the count including the redemption being checked (count + 1), so
   * "at most one per customer" is `redemption.count.per_customer` `$less_than_or_equal: [1]`.
   */
  counters: {
    /** This customer's redemptions of this redeemable (voucher or promotion tier). */
    customerRedemptionsOfRedeemable: number | null;
    /** This customer's redemptions within the redeemable's campaign. */
    customerRedemptionsInCampaign: number | null;
    /** All redemptions of the redeemable's campaign. */
    campaignRedemptions: number | null;
  };
}

/** What evaluateValidationRule decided. `message`: the failing condition's error.message, else the rule's, else null. */
export type RuleOutcome = { ok: true } | { ok: false; key: RuleViolationKey; condition: string; name: string; message: string | null };

/** Which parts of a RuleContext a rule reads, so a caller reads only those (e.g. skips counters when no rule counts). */
export interface RuleNeeds {
  order: boolean;
  customer: boolean;
  counters: boolean;
}

/** What the rules of `rules` read (see RuleNeeds). */
export function ruleNeeds(rules: readonly Pick<ValidationRule, 'rules'>[]): RuleNeeds {
  const needs: RuleNeeds = { order: false, customer: false, counters: false };
  for (const r of rules) {
    for (const c of Object.values(r.rules.conditions)) {
      const family = familyOf(c.name);
      if (family === 'order') needs.order = true;
      else if (family === 'customer') needs.customer = true;
      else needs.counters = true;
    }
  }
  return needs;
}

const familyOf = (name: string): Family => SCALAR_NAMES[name]?.family ?? 'order';

function compare(actual: unknown, operator: string, values: ConditionValue[]): boolean {
  const v = values[0];
  switch (operator) {
    case '$is':
    case '$in':
      return values.some((x) => equal(actual, x));
    case '$is_not':
    case '$not_in':
      return !values.some((x) => equal(actual, x));
    case '$less_than':
      return order(actual, v) === -1;
    case '$less_than_or_equal': {
      const o = order(actual, v);
      return o === -1 || o === 0;
    }
    case '$more_than':
      return order(actual, v) === 1;
    case '$more_than_or_equal': {
      const o = order(actual, v);
      return o === 1 || o === 0;
    }
    case '$before':
      return isDate(actual) && isDate(v) && Date.parse(actual) < Date.parse(v);
    case '$after':
      return isDate(actual) && isDate(v) && Date.parse(actual) > Date.parse(v);
    case '$starts_with':
      return typeof actual === 'string' && typeof v === 'string' && actual.startsWith(v);
    case '$ends_with':
      return typeof actual === 'string' && typeof v === 'string' && actual.endsWith(v);
    case '$contains':
      return typeof actual === 'string' && typeof v === 'string' && actual.includes(v);
    default:
      // compileRuleSet admits no other operator; a stored rule that has one fails rather than passes.
      return false;
  }
}

function equal(actual: unknown, expected: ConditionValue): boolean {
  if (actual === undefined) return false;
  if (Array.isArray(actual)) return actual.some((a) => equal(a, expected));
  return actual === expected;
}

/** -1, 0, 1 for numbers or for two dates; null when they do not compare (missing, different types). */
function order(actual: unknown, expected: ConditionValue | undefined): -1 | 0 | 1 | null {
  if (typeof actual === 'number' && typeof expected === 'number') return actual < expected ? -1 : actual > expected ? 1 : 0;
  if (isDate(actual) && isDate(expected)) {
    const a = Date.parse(actual);
    const e = Date.parse(expected);
    return a < e ? -1 : a > e ? 1 : 0;
  }
  return null;
}

const allHold = (actual: unknown, conditions: Record<string, ConditionValue[]>): boolean =>
  Object.entries(conditions).every(([op, values]) => compare(actual, op, values));

const ownKey = (record: Record<string, unknown>, key: string): unknown => (Object.hasOwn(record, key) ? record[key] : undefined);

function scalarValue(c: RuleCondition, ctx: RuleContext): unknown {
  switch (c.name) {
    case 'order.amount':
      return ctx.order?.amount ?? undefined;
    case 'order.items.count':
      return ctx.order ? ctx.order.items.length : undefined;
    case 'order.metadata':
      return ctx.order && c.property ? ownKey(ctx.order.metadata, c.property) : undefined;
    case 'customer.metadata':
      return ctx.customer && c.property ? ownKey(ctx.customer.metadata, c.property) : undefined;
    case 'redemption.count.per_customer':
      return plusOne(ctx.counters.customerRedemptionsOfRedeemable);
    case 'redemption.count.per_campaign':
      return plusOne(ctx.counters.customerRedemptionsInCampaign);
    case 'campaign.redemptions.count':
      return plusOne(ctx.counters.campaignRedemptions);
    default:
      return undefined;
  }
}
const plusOne = (n: number | null): number | undefined => (n === null ? undefined : n + 1);

/** Whether an order line is the product or SKU `t` names (by id or source id). */
export function itemMatches(item: RuleOrderItem, t: Pick<ItemTarget, 'object' | 'id' | 'source_id'>): boolean {
  if (t.object === 'products_collection') return t.id !== undefined && item.inCollection?.(t.id) === true;
  if (t.object === 'sku') return (t.id !== undefined && item.skuId === t.id) || (!!t.source_id && item.skuSourceId === t.source_id);
  // A product target also matches the SKUs of that product (their lines name the product too).
  return (t.id !== undefined && item.productId === t.id) || (!!t.source_id && item.productSourceId === t.source_id);
}

const sum = (xs: (number | null)[]): number => xs.reduce<number>((a, x) => a + (x ?? 0), 0);

/** Whether the lines of one target satisfy the sub-conditions (per-line ones: some line of the target does). */
function targetHolds(lines: RuleOrderItem[], sub: RuleSet): boolean {
  if (lines.length === 0) return false;
  if (!sub.logic) return true;
  const tree = parseLogic(sub.logic);
  return evaluateLogic(tree, (ref) => {
    const c = sub.conditions[ref];
    if (!c) return false;
    switch (c.name) {
      case 'order.items.quantity':
        return lines.some((l) => allHold(l.quantity ?? undefined, c.conditions));
      case 'order.items.price':
        return lines.some((l) => allHold(l.price ?? undefined, c.conditions));
      case 'order.items.aggregated_quantity':
        return allHold(sum(lines.map((l) => l.quantity)), c.conditions);
      case 'order.items.aggregated_amount':
        return allHold(sum(lines.map((l) => l.amount)), c.conditions);
      default:
        return false;
    }
  });
}

function itemsHold(c: RuleCondition, ctx: RuleContext): boolean {
  if (!ctx.order) return false;
  const items = ctx.order.items;
  return Object.values(c.conditions).every((targets) => {
    const groups = targets.filter((t): t is ItemTarget => !isScalar(t)).map((t) => items.filter((i) => itemMatches(i, t)));
    if (c.name === 'order.items.none') return groups.every((g) => g.length === 0);
    if (c.name === 'order.items.every') return groups.every((g) => targetHolds(g, c.rules));
    return groups.some((g) => targetHolds(g, c.rules));
  });
}

function conditionHolds(c: RuleCondition, ctx: RuleContext): boolean {
  if (ITEM_NAMES.has(c.name)) return itemsHold(c, ctx);
  if (c.name === 'customer.segment') {
    if (!ctx.customer) return false;
    return allHold(ctx.customer.segmentIds ?? [], c.conditions);
  }
  return allHold(scalarValue(c, ctx), c.conditions);
}

/**
 * Evaluates a stored rule on a context. Every numbered condition is evaluated (they are cheap and
 * in memory), then the logic. When the logic fails, the lowest-numbered failing condition names
 * the violation: its family gives the key (order.* → order_rules_violated, customer.* →
 * customer_rules_violated, redemption.* and campaign.* → redemption_rules_violated), and its
 * `error.message`, else the rule's, is the message. A rule with no conditions passes.
 */
export function evaluateValidationRule(rule: Pick<ValidationRule, 'rules' | 'error'>, ctx: RuleContext): RuleOutcome {
  const refs = Object.keys(rule.rules.conditions);
  if (refs.length === 0) return { ok: true };
  const outcomes = new Map<string, boolean>();
  for (const ref of refs) {
    const c = rule.rules.conditions[ref];
    outcomes.set(ref, c !== undefined && conditionHolds(c, ctx));
  }
  if (evaluateLogic(parseLogic(rule.rules.logic), (ref) => outcomes.get(ref) ?? false)) return { ok: true };
  const failing = refs.filter((r) => outcomes.get(r) === false).sort((a, b) => Number(a) - Number(b))[0] ?? refs[0] ?? '1';
  const c = rule.rules.conditions[failing];
  return {
    ok: false,
    key: violationKey[familyOf(c?.name ?? '')],
    condition: failing,
    name: c?.name ?? '',
    message: c?.error?.message ?? rule.error?.message ?? null,
  };
}

/**
 * Evaluates the rules of one redeemable in order (its campaign's, then its own, as the caller
 * lists them); the first that fails decides. Empty: passes.
 */
export function evaluateValidationRules(rules: readonly Pick<ValidationRule, 'id' | 'rules' | 'error'>[], ctx: RuleContext): RuleOutcome & { ruleId?: string } {
  for (const rule of rules) {
    const outcome = evaluateValidationRule(rule, ctx);
    if (!outcome.ok) return { ...outcome, ruleId: rule.id };
  }
  return { ok: true };
}

/** The redemption counters of a RuleContext, and the condition name that reads each. */
export type RuleCounter = keyof RuleContext['counters'];
const COUNTER_NAMES: Record<RuleCounter, string> = {
  customerRedemptionsOfRedeemable: 'redemption.count.per_customer',
  customerRedemptionsInCampaign: 'redemption.count.per_campaign',
  campaignRedemptions: 'campaign.redemptions.count',
};

/** The counts (before this redemption) a commit may find for the rules' verdict to stand; null: no bound that way. */
export interface CountRange {
  min: number | null;
  max: number | null;
}

/**
 * The widest run of values of one counter, around the value read, over which `rules` (all of them,
 * as evaluateValidationRules applies them) still pass with everything else in `ctx` unchanged: what
 * a commit must hold the counter to so that a verdict reached on a count read earlier is still the
 * verdict at the commit (lib/redemptions/redemption.repo.ts). Counts are integers and the conditions
 * compare count + 1 with constants, so the verdict can change only where count + 1 reaches ceil(v)
 * or, for an integer v, v + 1; the verdict is evaluated once per such point. Counts are never below 0,
 * so `min` is null or at least 1. Null when the rules fail
 * on the value read, or it is not known; `{ min: null, max: null }` when no value of the counter
 * changes the verdict (no rule reads it, or none bounds it).
 */
export function countRange(rules: readonly Pick<ValidationRule, 'id' | 'rules' | 'error'>[], ctx: RuleContext, counter: RuleCounter): CountRange | null {
  const read = ctx.counters[counter];
  if (read === null) return null;
  const passes = (n: number): boolean => evaluateValidationRules(rules, { ...ctx, counters: { ...ctx.counters, [counter]: n } }).ok;
  if (!passes(read)) return null;
  const name = COUNTER_NAMES[counter];
  const points = new Set<number>();
  for (const r of rules) {
    for (const c of Object.values(r.rules.conditions)) {
      if (c.name !== name) continue;
      for (const v of Object.values(c.conditions).flat()) {
        if (typeof v !== 'number' || !Number.isFinite(v)) continue;
        // In counts before this redemption (the conditions see count + 1).
        points.add(Math.ceil(v) - 1);
        if (Number.isInteger(v)) points.add(v);
      }
    }
  }
  const sorted = [...points].sort((a, b) => a - b);
  // `sorted` are the first counts of each run over which the verdict is constant.
  const max = sorted.find((p) => p > read && !passes(p));
  let min: number | undefined;
  // A count is never below 0: no bound is needed there.
  for (const p of sorted.filter((q) => q <= read && q > 0).reverse()) {
    if (!passes(p - 1)) {
      min = p;
      break;
    }
  }
  return { min: min ?? null, max: max === undefined ? null : max - 1 };
}

/**
 * The ids the rules of a request name (in `applicable_to` or an `order.items.*` condition): of
 * product collections (`collections`), or of products and SKUs (`items`: a line naming one is asked
 * whether it was deleted).
 */
export function ruleTargetIds(rules: readonly Pick<ValidationRule, 'rules' | 'applicableTo'>[]): { collections: string[]; items: Set<string> } {
  const ids = new Set<string>();
  const items = new Set<string>();
  const see = (t: ConditionValue) => {
    if (!isScalar(t) && t.id) (t.object === 'products_collection' ? ids : items).add(t.id);
  };
  for (const r of rules) {
    [...r.applicableTo.included, ...r.applicableTo.excluded].forEach(see);
    for (const c of Object.values(r.rules.conditions)) if (ITEM_NAMES.has(c.name)) Object.values(c.conditions).flat().forEach(see);
  }
  return { collections: [...ids], items };
}

/** An order line as a rule sees it, from the order's stored line (lib/orders/order.ts). */
export function ruleOrderItem(
  item: {
    productId: string | null;
    skuId: string | null;
    relatedObject: 'product' | 'sku' | null;
    sourceId: string | null;
    quantity: number | null;
    price: number | null;
    amount: number | null;
    product: { id?: string; sourceId?: string } | null;
    sku: { id?: string; sourceId?: string } | null;
  },
  inCollection?: (ids: { productId: string | null; skuId: string | null }, collectionId: string) => boolean,
  gone?: (id: string) => boolean,
): RuleOrderItem {
  // A deleted product or SKU is nothing a target can name: the line keeps none of its ids or source ids.
  const live = (id: string | null | undefined) => (id != null && gone?.(id) !== true ? id : null);
  const productId = item.productId ?? item.product?.id ?? null;
  const skuId = item.skuId ?? item.sku?.id ?? null;
  const ids = { productId: live(productId), skuId: live(skuId) };
  return {
    ...ids,
    productSourceId: ids.productId === productId ? (item.product?.sourceId ?? (item.relatedObject !== 'sku' ? item.sourceId : null)) : null,
    skuSourceId: ids.skuId === skuId ? (item.sku?.sourceId ?? (item.relatedObject === 'sku' ? item.sourceId : null)) : null,
    quantity: item.quantity,
    price: item.price,
    amount: item.amount ?? (item.price !== null && item.quantity !== null ? item.price * item.quantity : null),
    inCollection: inCollection && ((c) => inCollection(ids, c)),
  };
}
