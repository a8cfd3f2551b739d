import { camelize } from '../case.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { InvalidPayloadError, NotFoundError } from '../errors.js';
import { requireEventSchema } from '../custom-event-schemas/event-schema.service.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { commitOnce, type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import { findLoyaltyCampaign } from '../loyalties/loyalty.service.js';
import type { Runtime } from '../runtime.js';
import type { EarningRule } from './earning-rule.js';
import { earningRuleItems, getEarningRules, type EarningRuleRef } from './earning-rule.repo.js';
import { BUILT_IN_EVENTS, type CreateEarningRulesBody } from './earning-rule.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * POST /v1/loyalties/{campaignId}/earning-rules: custom event rules of a loyalty program. Each
 * rule's event must be defined by the project's custom event schemas (and match `custom_event.schema_id`
 * when given). All rules are stored together or none, with the record of an Idempotency-Key in the
 * same transaction: a retry after a lost reply must not store the rules twice, since every event
 * would then earn twice. The record keeps where the rules are, and a replay reads them back.
 * @throws NotFoundError (campaign: missing or not a loyalty program; custom_event_schema),
 *   InvalidPayloadError (a built-in event, a schema id of another event, dates out of order),
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
      throw new InvalidPayloadError(`[${index}].event ${input.event} needs orders, segments or tiers, which this service does not have; use a custom event`);
    }
    const schema = await requireEventSchema(deps, projectId, input.event);
    if (input.custom_event && input.custom_event.schema_id !== schema.id) {
      throw new InvalidPayloadError(`[${index}].custom_event.schema_id ${input.custom_event.schema_id} is not the schema of event ${input.event}`);
    }
    if (input.start_date && input.expiration_date && input.expiration_date < input.start_date) {
      throw new InvalidPayloadError(`[${index}].expiration_date must not be before start_date`);
    }
    rules.push({
      id: deps.ids.id('ern'),
      projectId,
      campaignId: campaign.id,
      event: input.event,
      customEventSchemaId: schema.id,
      loyalty: camelize(input.loyalty),
      banner: input.source?.banner ?? null,
      active: input.active ?? true,
      startDate: input.start_date ?? null,
      expirationDate: input.expiration_date ?? null,
      expirationRules: input.expiration_rules ? camelize(input.expiration_rules) : null,
      metadata: input.metadata ?? {},
      createdAt: now,
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
