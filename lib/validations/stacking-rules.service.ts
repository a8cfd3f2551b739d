import { RETRY, retryOnConflict } from '../db/transact.js';
import { InvalidPayloadError } from '../errors.js';
import { laterStamp } from '../management/later-stamp.js';
import type { Runtime } from '../runtime.js';
import { DEFAULT_STACKING_RULES, type StackingRules } from './stacking-rules.js';
import type { StackingRulesMembers, UpdateProjectStackingRulesBody } from './stacking-rules.schema.js';
import { getStoredStackingRules, putStackingRules, type StoredStackingRules } from './stacking-rules.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** The project's stacking rules and when they were last set (null: never, the defaults). */
export interface ProjectStackingRules {
  rules: StackingRules;
  updatedAt: string | null;
  /** The set rules' id (the management API's `stackingRulesId`); null: the defaults, or rules set before ids were given. */
  id: string | null;
  createdAt: string | null;
}

/** GET /v1/stacking-rules: the rules every validation of the project follows. */
export async function getProjectStackingRules(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string): Promise<ProjectStackingRules> {
  const stored = await getStoredStackingRules(deps, projectId);
  return stored === null ? { rules: DEFAULT_STACKING_RULES, updatedAt: null, id: null, createdAt: null } : fromStored(stored);
}

export const fromStored = (stored: StoredStackingRules): ProjectStackingRules => {
  const { updatedAt, id, createdAt, ...rules } = stored;
  return { rules, updatedAt, id: id ?? null, createdAt: createdAt ?? null };
};

export const changesOf = (b: StackingRulesMembers): Partial<StackingRules> => {
  const out: Partial<StackingRules> = {};
  const set = <K extends keyof StackingRules>(key: K, value: StackingRules[K] | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  set('redeemablesLimit', b.redeemables_limit);
  set('applicableRedeemablesLimit', b.applicable_redeemables_limit);
  set('applicableRedeemablesPerCategoryLimit', b.applicable_redeemables_per_category_limit);
  set('applicableRedeemablesCategoryLimits', b.applicable_redeemables_category_limits);
  set('applicableExclusiveRedeemablesLimit', b.applicable_exclusive_redeemables_limit);
  set('applicableExclusiveRedeemablesPerCategoryLimit', b.applicable_exclusive_redeemables_per_category_limit);
  set('exclusiveCategories', b.exclusive_categories);
  set('jointCategories', b.joint_categories);
  set('redeemablesApplicationMode', b.redeemables_application_mode);
  set('redeemablesSortingRule', b.redeemables_sorting_rule);
  set('redeemablesProductsApplicationMode', b.redeemables_products_application_mode);
  set('redeemablesNoEffectRule', b.redeemables_no_effect_rule);
  set('noEffectSkipCategories', b.no_effect_skip_categories);
  set('noEffectRedeemAnywayCategories', b.no_effect_redeem_anyway_categories);
  set('redeemablesRollbackOrderMode', b.redeemables_rollback_order_mode);
  return out;
};

/**
 * The reference's constraints between members: the applicable limit within the redeemables
 * limit, the per-category limit within the applicable limit, no category both in
 * `no_effect_skip_categories` and `no_effect_redeem_anyway_categories`.
 * @throws InvalidPayloadError naming the member.
 */
export function assertConsistent(r: StackingRules): void {
  if (r.applicableRedeemablesLimit > r.redeemablesLimit)
    throw new InvalidPayloadError('Property .applicable_redeemables_limit must not exceed redeemables_limit');
  if (r.applicableRedeemablesPerCategoryLimit > r.applicableRedeemablesLimit) {
    throw new InvalidPayloadError('Property .applicable_redeemables_per_category_limit must not exceed applicable_redeemables_limit');
  }
  const skip = new Set(r.noEffectSkipCategories);
  if (r.noEffectRedeemAnywayCategories.some((id) => skip.has(id))) {
    throw new InvalidPayloadError('Property .no_effect_redeem_anyway_categories must not share ids with no_effect_skip_categories');
  }
}

/**
 * PUT /v1/stacking-rules: sets the members sent, over the current rules (the defaults when never
 * set). A concurrent change is re-read and the members re-applied, so none is lost. The first
 * write gives the set rules their id (the management API's view: one set per project).
 * @throws InvalidPayloadError when the result breaks a constraint between members.
 */
export async function updateProjectStackingRules(deps: Deps, projectId: string, body: UpdateProjectStackingRulesBody): Promise<ProjectStackingRules> {
  return writeStackingRules(deps, projectId, changesOf(body), () => 'write');
}

/**
 * Writes `changes` over the current rules (the defaults when never set) under the optimistic lock.
 * `guard` sees the stored rules first: 'write' goes on; anything it throws refuses (nothing written).
 */
export async function writeStackingRules(
  deps: Deps,
  projectId: string,
  changes: Partial<StackingRules>,
  guard: (read: StoredStackingRules | null) => 'write',
): Promise<ProjectStackingRules> {
  return retryOnConflict('Too many concurrent changes of the stacking rules', async () => {
    const read = await getStoredStackingRules(deps, projectId);
    guard(read);
    const { updatedAt: _, id, createdAt, ...current } = read ?? { ...DEFAULT_STACKING_RULES, updatedAt: '' };
    const rules: StackingRules = { ...current, ...changes };
    assertConsistent(rules);
    const now = deps.clock.now();
    const updatedAt = laterStamp(now, read?.updatedAt ?? null);
    const next: StoredStackingRules = { ...rules, updatedAt, id: id ?? deps.ids.id('stkr'), createdAt: createdAt ?? now.toISOString() };
    return (await putStackingRules(deps, projectId, read, next)) ? fromStored(next) : RETRY;
  });
}
