import { campaign, earningRule, earningRuleRef } from '../db/entities.js';
import { mustExist, RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { EarningRule } from './earning-rule.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Where a rule is stored: enough to read it back (a replayed Idempotency-Key records these, not the rules). */
export interface EarningRuleRef {
  id: string;
  event: string;
  campaignId: string;
}

/**
 * The items storing rules in one transaction, each under its event's partition, and last a check
 * that the campaign still exists (its index is `items.length - 1`).
 */
export function earningRuleItems(deps: Deps, projectId: string, campaignId: string, rules: EarningRule[]): TransactItem[] {
  return [
    ...rules.flatMap((r) => [
      earningRule.putIfAbsent(deps, r),
      earningRuleRef.putIfAbsent(deps, { projectId, id: r.id, event: r.event, campaignId: r.campaignId }),
    ]),
    mustExist(deps, campaign.key(projectId, campaignId)),
  ];
}

/** Rules by reference, in the order given (consistent Gets); a rule deleted since is left out. */
export function getEarningRules(deps: Deps, projectId: string, refs: EarningRuleRef[]): Promise<EarningRule[]> {
  return Promise.all(
    refs.map(async (ref) => {
      return earningRule.get(deps, earningRule.key(projectId, ref.event, ref.campaignId, ref.id));
    }),
  ).then((rules) => rules.filter((r): r is EarningRule => r !== null));
}

/**
 * Every rule triggered by an event name, of any campaign (one Query on the event's partition, read
 * consistently): a rule disabled or deleted a moment ago is already seen so, and earns nothing.
 */
export function listEarningRulesOfEvent(deps: Deps, projectId: string, eventName: string): Promise<EarningRule[]> {
  return earningRule.query(deps, { key: [projectId, eventName] }, { consistent: true });
}

/** A rule by id (two consistent Gets: its location, then the rule); null when there is none. */
export async function findEarningRule(deps: Deps, projectId: string, ruleId: string): Promise<EarningRule | null> {
  const at = await earningRuleRef.get(deps, earningRuleRef.key(projectId, ruleId));
  return at ? earningRule.get(deps, earningRule.key(projectId, at.event, at.campaignId, at.id)) : null;
}

/** Every rule of a campaign (GSI1, oldest first); a campaign's rules are few (each creation adds at most 50). */
export function listEarningRulesOfCampaign(deps: Deps, projectId: string, campaignId: string): Promise<EarningRule[]> {
  return earningRule.query(deps, { index: [projectId, campaignId] });
}

/** Sets fields of a stored rule (never re-creates a deleted one). @returns the rule as written, null when it is gone. */
export function updateEarningRuleFields(deps: Deps, rule: EarningRule, fields: Partial<EarningRule>): Promise<EarningRule | null> {
  return earningRule.update(deps, earningRule.key(rule.projectId, rule.event, rule.campaignId, rule.id), fields);
}

/** Deletes a rule and its location in one transaction. @returns false when it was already gone. */
export function deleteEarningRuleItems(deps: Deps, rule: EarningRule): Promise<boolean> {
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: deps.tableName,
        Key: earningRule.key(rule.projectId, rule.event, rule.campaignId, rule.id),
        ConditionExpression: 'attribute_exists(PK)',
      },
    },
    { Delete: { TableName: deps.tableName, Key: earningRuleRef.key(rule.projectId, rule.id) } },
  ];
  return retryOnConflict(`Too many concurrent writes to earning rule ${rule.id}`, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return true;
    return 'failed' in outcome ? false : RETRY;
  });
}
