import { keys } from '../db/keys.js';
import { queryAll } from '../db/query.js';
import { transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { EarningRule } from './earning-rule.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const ENTITY = 'earning_rule';
const SCHEMA_VERSION = 1;

const toDomain = (item: Record<string, unknown>): EarningRule => {
  const { PK: _pk, SK: _sk, entity: _e, v: _v, ...rest } = item;
  return rest as unknown as EarningRule;
};

/**
 * Stores rules in one transaction, each under its event's partition. The campaign must still exist.
 * @returns false when the campaign is gone (nothing written).
 */
export async function insertEarningRules(deps: Deps, projectId: string, campaignId: string, rules: EarningRule[]): Promise<boolean> {
  const items: TransactItem[] = rules.map((r) => ({
    Put: {
      TableName: deps.tableName,
      Item: { ...keys.earningRule(projectId, r.event, campaignId, r.id), entity: ENTITY, v: SCHEMA_VERSION, ...r },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  }));
  items.push({ ConditionCheck: { TableName: deps.tableName, Key: keys.campaign(projectId, campaignId), ConditionExpression: 'attribute_exists(PK)' } });
  for (;;) {
    const outcome = await transact(deps, items);
    if (outcome.ok) return true;
    if ('failed' in outcome) {
      if (outcome.failed.includes(items.length - 1)) return false;
      throw new Error('A random earning rule id collided');
    }
  }
}

/** Every rule triggered by an event name, of any campaign (one Query on the event's partition, read consistently). */
export async function listEarningRulesOfEvent(deps: Deps, projectId: string, eventName: string): Promise<EarningRule[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.earningRulesOfEventPartition(projectId, eventName) },
    ConsistentRead: true,
  });
  return items.map(toDomain);
}
