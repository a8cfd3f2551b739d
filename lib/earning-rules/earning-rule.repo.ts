import { campaign, earningRule } from '../db/entities.js';
import { mustExist, type TransactItem } from '../db/transact.js';
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
  return [...rules.map((r) => earningRule.putIfAbsent(deps, r)), mustExist(deps, campaign.key(projectId, campaignId))];
}

/** Rules by reference, in the order given (consistent Gets; rules are never changed or deleted, so all are there). */
export function getEarningRules(deps: Deps, projectId: string, refs: EarningRuleRef[]): Promise<EarningRule[]> {
  return Promise.all(
    refs.map(async (ref) => {
      const rule = await earningRule.get(deps, earningRule.key(projectId, ref.event, ref.campaignId, ref.id));
      if (!rule) throw new Error(`Earning rule ${ref.id} of a recorded reply is missing`);
      return rule;
    }),
  );
}

/** Every rule triggered by an event name, of any campaign (one Query on the event's partition, read consistently). */
export function listEarningRulesOfEvent(deps: Deps, projectId: string, eventName: string): Promise<EarningRule[]> {
  return earningRule.query(deps, { key: [projectId, eventName] }, { consistent: true });
}
