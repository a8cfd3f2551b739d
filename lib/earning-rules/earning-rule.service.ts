import { camelize } from '../case.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { InvalidPayloadError, NotFoundError } from '../errors.js';
import { requireEventSchema } from '../custom-event-schemas/event-schema.service.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { commitOnce, type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import { findLoyaltyCampaign } from '../loyalties/loyalty.service.js';
import type { Runtime } from '../runtime.js';
import type { EarningRule } from './earning-rule.js';
import {
  deleteEarningRuleItems,
  earningRuleItems,
  findEarningRule,
  getEarningRules,
  listEarningRulesOfCampaign,
  updateEarningRuleFields,
  type EarningRuleRef,
} from './earning-rule.repo.js';
import {
  BUILT_IN_EVENTS,
  ORDER_PAID_EVENT,
  type CreateEarningRulesBody,
  type ListEarningRulesQuery,
  type UpdateEarningRuleBody,
} from './earning-rule.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * An `order.paid` rule computes PROPORTIONAL points from the order, a custom event rule from the
 * event's metadata (`calculationType` null: FIXED, which fits both).
 * @throws InvalidPayloadError naming `at` when the calculation does not fit the event.
 */
function checkLoyaltyFits(event: string, calculationType: string | null, at: string): void {
  if (calculationType === null) return;
  const orderRule = event === ORDER_PAID_EVENT;
  if (orderRule === (calculationType === 'CUSTOM_EVENT_METADATA')) {
    throw new InvalidPayloadError(
      orderRule
        ? `${at}.calculation_type ${calculationType} is for custom event rules; an ${ORDER_PAID_EVENT} rule computes points from the order (ORDER_AMOUNT, ORDER_TOTAL_AMOUNT, ORDER_METADATA, ORDER_ITEMS_QUANTITY, ORDER_ITEMS_AMOUNT, ORDER_ITEMS_SUBTOTAL_AMOUNT)`
        : `${at}.calculation_type ${calculationType} is for ${ORDER_PAID_EVENT} rules; a custom event rule computes points from the event's metadata (CUSTOM_EVENT_METADATA)`,
    );
  }
}

/**
 * POST /v1/loyalties/{campaignId}/earning-rules: custom event and `order.paid` rules of a loyalty
 * program. A custom event rule's event must be defined by the project's custom event schemas (and
 * match `custom_event.schema_id` when given); an `order.paid` rule has no schema and computes
 * PROPORTIONAL points from the order (lib/earning-rules/order-points.ts). All rules are stored together or none, with the record of an Idempotency-Key in the
 * same transaction: a retry after a lost reply must not store the rules twice, since every event
 * would then earn twice. The record keeps where the rules are, and a replay reads them back.
 * @throws NotFoundError (campaign: missing or not a loyalty program; custom_event_schema),
 *   InvalidPayloadError (a segment or tier event, a schema id of another event, a calculation of another event's kind, dates out of order),
 *   IdempotencyKeyReusedError, ConflictRetryError.
 */
export async function createEarningRule(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  body: CreateEarningRulesBody,
  idempotency: IdempotencyScope | null = null,
): Promise<Committed<EarningRule[]>> {
  const at = deps.clock.now();
  if (idempotency) {
    const first = await recordedReply<EarningRuleRef[]>(deps, idempotency, at);
    if (first !== undefined) return { value: await getEarningRules(deps, projectId, first), replayed: true };
  }
  const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  const now = at.toISOString();
  const rules: EarningRule[] = [];
  for (const [index, input] of body.entries()) {
    if ((BUILT_IN_EVENTS as readonly string[]).includes(input.event)) {
      throw new InvalidPayloadError(
        `[${index}].event ${input.event} needs segments or tiers, which this service does not have; use order.paid or a custom event`,
      );
    }
    checkLoyaltyFits(input.event, input.loyalty.type === 'FIXED' ? null : input.loyalty.calculation_type, `[${index}].loyalty`);
    const isOrderRule = input.event === ORDER_PAID_EVENT;
    if (isOrderRule && input.custom_event) throw new InvalidPayloadError(`[${index}].custom_event is for custom event rules, not ${ORDER_PAID_EVENT}`);
    const schema = isOrderRule ? null : await requireEventSchema(deps, projectId, input.event);
    if (schema && input.custom_event && input.custom_event.schema_id !== schema.id) {
      throw new InvalidPayloadError(`[${index}].custom_event.schema_id ${input.custom_event.schema_id} is not the schema of event ${input.event}`);
    }
    if (input.pending_points && !isOrderRule) throw new InvalidPayloadError(`[${index}].pending_points applies only to ${ORDER_PAID_EVENT} rules`);
    if (input.start_date && input.expiration_date && input.expiration_date < input.start_date) {
      throw new InvalidPayloadError(`[${index}].expiration_date must not be before start_date`);
    }
    rules.push({
      id: deps.ids.id('ern'),
      projectId,
      campaignId: campaign.id,
      event: input.event,
      customEventSchemaId: schema?.id ?? null,
      loyalty: camelize(input.loyalty),
      banner: input.source?.banner ?? null,
      active: input.active ?? true,
      startDate: input.start_date ?? null,
      expirationDate: input.expiration_date ?? null,
      expirationRules: input.expiration_rules ? camelize(input.expiration_rules) : null,
      pendingPoints: input.pending_points ? { periodType: 'DAY', periodValue: input.pending_points.period_value } : null,
      metadata: input.metadata ?? {},
      createdAt: now,
      updatedAt: null,
    });
  }
  const items = earningRuleItems(deps, projectId, campaign.id, rules);
  const refs: EarningRuleRef[] = rules.map((r) => ({ id: r.id, event: r.event, campaignId: r.campaignId }));
  return retryOnConflict(`Too many concurrent writes for the earning rules of campaign ${campaignRef}`, async () => {
    const outcome = await commitOnce(deps, idempotency, items, refs, at);
    if (outcome.ok) return { value: outcome.replayed ? await getEarningRules(deps, projectId, outcome.reply) : rules, replayed: outcome.replayed };
    if (!('failed' in outcome)) return RETRY;
    if (outcome.failed.includes(items.length - 1)) throw new NotFoundError('campaign', campaignRef);
    throw new Error('A random earning rule id collided');
  });
}

/**
 * A rule of a loyalty program by id.
 * @throws NotFoundError (campaign: missing or not a loyalty program; earning_rule: missing or of another program).
 */
export async function getEarningRule(deps: Deps, projectId: string, campaignRef: string, ruleId: string): Promise<EarningRule> {
  // Both reads at once; an unknown program is reported before an unknown rule.
  const [campaignRead, ruleRead] = await Promise.allSettled([findLoyaltyCampaign(deps, projectId, campaignRef), findEarningRule(deps, projectId, ruleId)]);
  if (campaignRead.status === 'rejected') throw campaignRead.reason;
  if (ruleRead.status === 'rejected') throw ruleRead.reason;
  const rule = ruleRead.value;
  if (!rule || rule.campaignId !== campaignRead.value.id) throw new NotFoundError('earning_rule', ruleId);
  return rule;
}

export interface EarningRulePage {
  rules: EarningRule[];
  total: number;
}

const orderKey = (r: EarningRule, field: 'created_at' | 'updated_at'): string => (field === 'created_at' ? r.createdAt : (r.updatedAt ?? r.createdAt));

/**
 * GET /v1/loyalties/{campaignId}/earning-rules: one page of a program's rules in `order` (a rule
 * never updated sorts by its creation time under `updated_at`), and how many it has.
 * @throws NotFoundError (campaign).
 */
export async function listEarningRules(deps: Deps, projectId: string, campaignRef: string, query: ListEarningRulesQuery): Promise<EarningRulePage> {
  const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  const all = await listEarningRulesOfCampaign(deps, projectId, campaign.id);
  const descending = query.order.startsWith('-');
  const field = (descending ? query.order.slice(1) : query.order) as 'created_at' | 'updated_at';
  const sorted = [...all].sort((a, b) => {
    const by = orderKey(a, field).localeCompare(orderKey(b, field)) || a.id.localeCompare(b.id);
    return descending ? -by : by;
  });
  const start = (query.page - 1) * query.limit;
  return { rules: sorted.slice(start, start + query.limit), total: all.length };
}

/** Sets fields of a found rule; a rule deleted meanwhile is not found. */
async function changeRule(deps: Deps, rule: EarningRule, fields: Partial<EarningRule>): Promise<EarningRule> {
  const written = await updateEarningRuleFields(deps, rule, { ...fields, updatedAt: deps.clock.now().toISOString() });
  if (!written) throw new NotFoundError('earning_rule', rule.id);
  return written;
}

/**
 * PUT /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}: replaces the fields given. The
 * change applies to the next event at once (earning reads rules consistently).
 * @throws NotFoundError (campaign, earning_rule), InvalidPayloadError (dates out of order, a calculation of another event's kind).
 */
export async function updateEarningRule(deps: Deps, projectId: string, campaignRef: string, ruleId: string, body: UpdateEarningRuleBody): Promise<EarningRule> {
  const rule = await getEarningRule(deps, projectId, campaignRef, ruleId);
  if (body.loyalty) checkLoyaltyFits(rule.event, body.loyalty.type === 'FIXED' ? null : body.loyalty.calculation_type, 'loyalty');
  if (body.pending_points && rule.event !== ORDER_PAID_EVENT) throw new InvalidPayloadError(`pending_points applies only to ${ORDER_PAID_EVENT} rules`);
  const fields: Partial<EarningRule> = {
    ...(body.loyalty !== undefined ? { loyalty: camelize(body.loyalty) } : {}),
    ...(body.source?.banner !== undefined ? { banner: body.source.banner } : {}),
    ...(body.active !== undefined ? { active: body.active } : {}),
    ...(body.start_date !== undefined ? { startDate: body.start_date } : {}),
    ...(body.expiration_date !== undefined ? { expirationDate: body.expiration_date } : {}),
    ...(body.expiration_rules !== undefined ? { expirationRules: body.expiration_rules ? camelize(body.expiration_rules) : null } : {}),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    ...(body.pending_points !== undefined
      ? { pendingPoints: body.pending_points ? { periodType: 'DAY' as const, periodValue: body.pending_points.period_value } : null }
      : {}),
  };
  const start = fields.startDate !== undefined ? fields.startDate : rule.startDate;
  const end = fields.expirationDate !== undefined ? fields.expirationDate : rule.expirationDate;
  if (start !== null && end !== null && end < start) throw new InvalidPayloadError('expiration_date must not be before start_date');
  return changeRule(deps, rule, fields);
}

/**
 * POST …/earning-rules/{earningRuleId}/enable or /disable: switches the rule; a disabled rule earns
 * nothing from the next event on.
 * @throws NotFoundError (campaign, earning_rule).
 */
export async function setEarningRuleActive(deps: Deps, projectId: string, campaignRef: string, ruleId: string, active: boolean): Promise<EarningRule> {
  return changeRule(deps, await getEarningRule(deps, projectId, campaignRef, ruleId), { active });
}

/** POST …/enable. @throws NotFoundError (campaign, earning_rule). */
export const enableEarningRule = (deps: Deps, projectId: string, campaignRef: string, ruleId: string): Promise<EarningRule> =>
  setEarningRuleActive(deps, projectId, campaignRef, ruleId, true);

/** POST …/disable. @throws NotFoundError (campaign, earning_rule). */
export const disableEarningRule = (deps: Deps, projectId: string, campaignRef: string, ruleId: string): Promise<EarningRule> =>
  setEarningRuleActive(deps, projectId, campaignRef, ruleId, false);

/**
 * DELETE /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}: the rule and its location go in
 * one transaction; the next event earns nothing by it.
 * @throws NotFoundError (campaign, earning_rule).
 */
export async function deleteEarningRule(deps: Deps, projectId: string, campaignRef: string, ruleId: string): Promise<void> {
  const rule = await getEarningRule(deps, projectId, campaignRef, ruleId);
  if (!(await deleteEarningRuleItems(deps, rule))) throw new NotFoundError('earning_rule', ruleId);
}
