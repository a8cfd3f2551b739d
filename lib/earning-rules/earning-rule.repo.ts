import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import { queryAll } from '../db/query.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { EarningRule } from './earning-rule.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const ENTITY = 'earning_rule';
const SCHEMA_VERSION = 1;

const toDomain = (item: Record<string, unknown>): EarningRule => {
  const { PK: _pk, SK: _sk, entity: _e, v: _v, ...rest } = item;
  return rest as unknown as EarningRule;
};

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
  const items: TransactItem[] = rules.map((r) => ({
    Put: {
      TableName: deps.tableName,
      Item: { ...keys.earningRule(projectId, r.event, campaignId, r.id), entity: ENTITY, v: SCHEMA_VERSION, ...r },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  }));
  items.push({ ConditionCheck: { TableName: deps.tableName, Key: keys.campaign(projectId, campaignId), ConditionExpression: 'attribute_exists(PK)' } });
  return items;
}

/** Rules by reference, in the order given (consistent Gets; rules are never changed or deleted, so all are there). */
export function getEarningRules(deps: Deps, projectId: string, refs: EarningRuleRef[]): Promise<EarningRule[]> {
  return Promise.all(
    refs.map(async (ref) => {
      const res = await deps.ddb.send(
        new GetCommand({ TableName: deps.tableName, Key: keys.earningRule(projectId, ref.event, ref.campaignId, ref.id), ConsistentRead: true }),
      );
      if (!res.Item) throw new Error(`Earning rule ${ref.id} of a recorded reply is missing`);
      return toDomain(res.Item);
    }),
  );
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
