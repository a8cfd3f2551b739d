import { type QualifiedRedeemable, qualifyPromotionTiers } from '../qualifications/qualification.service.js';
import type { Runtime } from '../runtime.js';
import type { Evaluation } from './evaluation.js';
import type { ValidatePromotionsBody, ValidatePromotionsQuery } from './legacy-promotions.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids' | 'clock' | 'qualificationHints'>;

/**
 * POST /v1/promotions/validation (legacy): the promotion tiers the customer and/or order qualify
 * for, each evaluated alone by the engine of POST /v1/validations (as a qualification's tiers), in
 * hierarchy order. `filters[promotion_id]` keeps the tiers it names ($in / $is; $not_in / $is_not
 * drop them). Writes nothing.
 * @throws NotFoundError (order) for an unknown order id; as evaluateRedeemables otherwise.
 */
export async function validatePromotions(
  deps: Deps,
  projectId: string,
  body: ValidatePromotionsBody,
  query: ValidatePromotionsQuery,
): Promise<{ context: Evaluation; tiers: QualifiedRedeemable[] }> {
  const { options: _expand, ...request } = body;
  const ids = query.filters?.promotion_id?.conditions;
  const wanted = ids?.$in ?? (ids?.$is !== undefined ? [ids.$is] : undefined);
  const unwanted = new Set([...(ids?.$not_in ?? []), ...(ids?.$is_not !== undefined ? [ids.$is_not] : [])]);
  const found = await qualifyPromotionTiers(deps, projectId, request, { audienceOnly: query.audienceRulesOnly === 'true', tierIds: wanted });
  return { context: found.context, tiers: found.tiers.filter((t) => !unwanted.has(t.id)) };
}
