import { campaign as campaignEntity, reward as rewardEntity, rewardAssignmentPair } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Reward, RewardAssignment } from '../rewards/reward.js';
import type { Runtime } from '../runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Takes one unit of a reward's stock: `redeemed` becomes one more than was read, on condition that
 * the stock is unchanged and `redeemed` is still what was read (so of concurrent redemptions of the
 * last unit exactly one commits; the others read again and find none left).
 */
export function takeStockItem(deps: Deps, reward: Reward, now: string): TransactItem {
  if (reward.stock === null) throw new Error(`Reward ${reward.id} has no stock to take from`);
  const was = reward.redeemed;
  return {
    Update: {
      TableName: deps.tableName,
      Key: rewardEntity.key(reward.projectId, reward.id),
      UpdateExpression: 'SET redeemed = :next, updatedAt = :now',
      ConditionExpression:
        was === null ? 'stock = :stock AND (attribute_not_exists(redeemed) OR attribute_type(redeemed, :nullType))' : 'stock = :stock AND redeemed = :was',
      ExpressionAttributeValues: {
        ':next': (was ?? 0) + 1,
        ':now': now,
        ':stock': reward.stock,
        ...(was === null ? { ':nullType': 'NULL' } : { ':was': was }),
      },
    },
  };
}

/** The assignment still on the campaign, the same one (a deleted assignment cannot be redeemed, nor one replaced meanwhile). */
export const assignmentStillThereItem = (deps: Deps, a: RewardAssignment): TransactItem => ({
  ConditionCheck: {
    TableName: deps.tableName,
    Key: rewardAssignmentPair.key(a.projectId, a.rewardId, a.campaignId),
    ConditionExpression: 'id = :aid',
    ExpressionAttributeValues: { ':aid': a.id },
  },
});

/**
 * The program still exists and is active when the payment commits: a condition, not a write, so a
 * busy program's item sees no contention (the same check POST /v1/redemptions makes per campaign).
 */
export const programStillActiveItem = (deps: Deps, projectId: string, campaignId: string): TransactItem => ({
  ConditionCheck: {
    TableName: deps.tableName,
    Key: campaignEntity.key(projectId, campaignId),
    ConditionExpression: 'active = :t',
    ExpressionAttributeValues: { ':t': true },
  },
});

/** A campaign's reward assignments, oldest first (GSI1 of the pair items: eventually consistent). */
export function campaignRewardAssignments(deps: Deps, projectId: string, campaignId: string): Promise<RewardAssignment[]> {
  return rewardAssignmentPair.query(deps, { index: [projectId, campaignId] }, { ascending: true });
}

/** Rewards by id (in the order of `ids`; missing ones left out). */
export async function getRewards(deps: Deps, projectId: string, ids: string[]): Promise<Reward[]> {
  if (ids.length === 0) return [];
  const found = await rewardEntity.getMany(
    deps,
    ids.map((id) => rewardEntity.key(projectId, id)),
    `Too many concurrent reads of rewards of project ${projectId}`,
  );
  const byId = new Map(found.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
