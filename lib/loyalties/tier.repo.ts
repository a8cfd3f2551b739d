import { loyaltyTierSet } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { ENTITY_ATTR, VERSION_ATTR } from '../db/table.js';
import type { LoyaltyTier, LoyaltyTierSet } from './tier.js';
import type { TierRule } from './tier-period.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A program's tiers (one consistent GetItem); none = an empty set at revision 0. */
export async function getTierSet(deps: Deps, projectId: string, campaignId: string): Promise<LoyaltyTierSet> {
  return (await loyaltyTierSet.get(deps, loyaltyTierSet.key(projectId, campaignId))) ?? { projectId, campaignId, tiers: [], revision: 0 };
}

/** A program's tiers (none: empty) and their expiration settings; for the points changes of a card, which carry the tier as a field. */
export async function programTiers(deps: Deps, projectId: string, campaignId: string): Promise<LoyaltyTierSet> {
  return getTierSet(deps, projectId, campaignId);
}

/**
 * The Update setting a program's `loyalty_tiers_expiration` on its tier item (null: back to BALANCE),
 * for the program's own update transaction. Unconditioned, it cannot fail that transaction; it
 * raises the revision, so a tier creation in flight re-reads and keeps it.
 */
export function setTierExpirationItem(deps: Pick<Runtime, 'tableName'>, projectId: string, campaignId: string, expiration: TierRule | null): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: loyaltyTierSet.key(projectId, campaignId),
      UpdateExpression:
        'SET expiration = :e, projectId = :p, campaignId = :c, tiers = if_not_exists(tiers, :none), revision = if_not_exists(revision, :zero) + :one, #ent = :ent, #v = :v',
      ExpressionAttributeNames: { '#ent': ENTITY_ATTR, '#v': VERSION_ATTR },
      ExpressionAttributeValues: {
        ':e': expiration,
        ':p': projectId,
        ':c': campaignId,
        ':none': [],
        ':zero': 0,
        ':one': 1,
        ':ent': loyaltyTierSet.name,
        ':v': loyaltyTierSet.version,
      },
    },
  };
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
