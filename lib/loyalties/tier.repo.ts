import { loyaltyTierSet } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { LoyaltyTier, LoyaltyTierSet } from './tier.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A program's tiers (one consistent GetItem); none = an empty set at revision 0. */
export async function getTierSet(deps: Deps, projectId: string, campaignId: string): Promise<LoyaltyTierSet> {
  return (await loyaltyTierSet.get(deps, loyaltyTierSet.key(projectId, campaignId))) ?? { projectId, campaignId, tiers: [], revision: 0 };
}

/** A program's tiers, or none; for the points changes of a card, which carry the tier as a field. */
export async function programTiers(deps: Deps, projectId: string, campaignId: string): Promise<LoyaltyTier[]> {
  return (await getTierSet(deps, projectId, campaignId)).tiers;
}

/** The Put of a program's new tier set, holding only at the revision read (so parallel creations serialize). */
export function putTierSetItem(deps: Pick<Runtime, 'tableName'>, read: LoyaltyTierSet, tiers: LoyaltyTier[]): TransactItem {
  const next: LoyaltyTierSet = { ...read, tiers, revision: read.revision + 1 };
  return {
    Put: {
      TableName: deps.tableName,
      Item: loyaltyTierSet.toItem(next),
      ConditionExpression: read.revision === 0 ? 'attribute_not_exists(revision)' : 'revision = :rev',
      ...(read.revision === 0 ? {} : { ExpressionAttributeValues: { ':rev': read.revision } }),
    },
  };
}
